// n elements of T on the stack when n <= N, on the heap otherwise: launch
// paths build per-argument arrays without allocating for ordinary kernels.
#pragma once

#include <cstddef>
#include <vector>

namespace imex_l0 {

template <typename T, size_t N = 32> class SmallBuffer {
public:
    explicit SmallBuffer(size_t n) {
        if (n > N) {
            heap_.resize(n);
            data_ = heap_.data();
        }
    }
    SmallBuffer(const SmallBuffer &) = delete;
    SmallBuffer &operator=(const SmallBuffer &) = delete;

    T *data() { return data_; }
    T &operator[](size_t i) { return data_[i]; }

private:
    T inline_[N];
    std::vector<T> heap_;
    T *data_ = inline_;
};

} // namespace imex_l0
