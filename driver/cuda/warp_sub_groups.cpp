#include "warp_sub_groups.hpp"

#include "call_rewrite.hpp"
#include "sub_groups.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace ze_cuda {

namespace {

using ze_driver::detail::callBuiltin;

constexpr unsigned kWarp = 32;

// The calling work-item's warp: its lane, the sub-group's size and the mask
// of its lanes (the low `size` ones), all i32.
struct Warp {
    llvm::Value *lane;
    llvm::Value *id;
    llvm::Value *size;
    llvm::Value *mask;
};

llvm::Value *workItem(llvm::IRBuilder<> &b, const char *mangled, unsigned dimension) {
    return callBuiltin(b, mangled, b.getInt64Ty(), {b.getInt32(dimension)});
}

llvm::Value *linearLocalSize(llvm::IRBuilder<> &b) {
    return b.CreateMul(
        b.CreateMul(workItem(b, "_Z14get_local_sizej", 0), workItem(b, "_Z14get_local_sizej", 1)),
        workItem(b, "_Z14get_local_sizej", 2));
}

Warp warpOf(llvm::IRBuilder<> &b) {
    llvm::Value *lid = workItem(b, "_Z12get_local_idj", 0);
    llvm::Value *yz = b.CreateAdd(
        workItem(b, "_Z12get_local_idj", 1),
        b.CreateMul(workItem(b, "_Z14get_local_sizej", 1), workItem(b, "_Z12get_local_idj", 2)));
    llvm::Value *linear = b.CreateAdd(lid, b.CreateMul(workItem(b, "_Z14get_local_sizej", 0), yz));
    Warp w;
    w.lane = b.CreateTrunc(b.CreateAnd(linear, b.getInt64(kWarp - 1)), b.getInt32Ty());
    llvm::Value *id = b.CreateLShr(linear, b.getInt64(5));
    w.id = b.CreateTrunc(id, b.getInt32Ty());
    llvm::Value *rest = b.CreateSub(linearLocalSize(b), b.CreateShl(id, b.getInt64(5)));
    llvm::Value *size =
        b.CreateSelect(b.CreateICmpULT(rest, b.getInt64(kWarp)), rest, b.getInt64(kWarp));
    w.size = b.CreateTrunc(size, b.getInt32Ty());
    llvm::Value *partial = b.CreateSub(
        b.CreateShl(b.getInt32(1), b.CreateAnd(w.size, b.getInt32(kWarp - 1))), b.getInt32(1));
    w.mask = b.CreateSelect(b.CreateICmpEQ(w.size, b.getInt32(kWarp)), b.getInt32(~0u), partial);
    return w;
}

enum class Shuffle { index, up, down, xorLanes };

// shfl.sync of one 32-bit word: from lane `at` (index), `at` lanes below
// (up) or above (down), or lane ^ `at` (xorLanes).
llvm::Value *shuffleWord(llvm::IRBuilder<> &b, Shuffle kind, const Warp &w, llvm::Value *word,
                         llvm::Value *at) {
    llvm::Intrinsic::ID id = kind == Shuffle::index  ? llvm::Intrinsic::nvvm_shfl_sync_idx_i32
                             : kind == Shuffle::up   ? llvm::Intrinsic::nvvm_shfl_sync_up_i32
                             : kind == Shuffle::down ? llvm::Intrinsic::nvvm_shfl_sync_down_i32
                                                     : llvm::Intrinsic::nvvm_shfl_sync_bfly_i32;
    // The clamp: lanes past the warp's last for the others, from lane 0 up.
    llvm::Value *clamp = b.getInt32(kind == Shuffle::up ? 0 : kWarp - 1);
    return b.CreateIntrinsic(id, {},
                             {w.mask, word, b.CreateZExtOrTrunc(at, b.getInt32Ty()), clamp});
}

// A shuffle of any scalar or vector of integers and floats up to 64 bits,
// word by word; null for other types.
llvm::Value *shuffle(llvm::IRBuilder<> &b, Shuffle kind, const Warp &w, llvm::Value *v,
                     llvm::Value *at) {
    llvm::Type *type = v->getType();
    if (auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type)) {
        llvm::Value *result = llvm::UndefValue::get(vector);
        for (unsigned i = 0; i < vector->getNumElements(); ++i) {
            llvm::Value *lane = shuffle(b, kind, w, b.CreateExtractElement(v, i), at);
            if (!lane)
                return nullptr;
            result = b.CreateInsertElement(result, lane, i);
        }
        return result;
    }
    if (!type->isIntegerTy() && !type->isFloatingPointTy())
        return nullptr;
    const unsigned bits = type->getPrimitiveSizeInBits();
    if (bits > 64)
        return nullptr;
    llvm::Type *asInt = b.getIntNTy(bits);
    llvm::Value *x = b.CreateBitCast(v, asInt);
    llvm::Value *moved;
    if (bits <= 32) {
        moved = b.CreateTrunc(shuffleWord(b, kind, w, b.CreateZExt(x, b.getInt32Ty()), at), asInt);
    } else {
        llvm::Value *lo = shuffleWord(b, kind, w, b.CreateTrunc(x, b.getInt32Ty()), at);
        llvm::Value *hi = shuffleWord(
            b, kind, w, b.CreateTrunc(b.CreateLShr(x, b.getInt64(32)), b.getInt32Ty()), at);
        moved = b.CreateOr(b.CreateZExt(lo, asInt), b.CreateShl(b.CreateZExt(hi, asInt), 32));
    }
    return b.CreateBitCast(moved, type);
}

llvm::Value *combine(llvm::IRBuilder<> &b, llvm::StringRef op, llvm::Value *x, llvm::Value *y,
                     bool isSignedType) {
    const bool fp = x->getType()->isFloatingPointTy();
    if (op == "add")
        return fp ? b.CreateFAdd(x, y) : b.CreateAdd(x, y);
    const bool min = op == "min";
    if (fp)
        return b.CreateBinaryIntrinsic(min ? llvm::Intrinsic::minnum : llvm::Intrinsic::maxnum, x,
                                       y);
    llvm::Value *less = isSignedType ? b.CreateICmpSLT(x, y) : b.CreateICmpULT(x, y);
    return min ? b.CreateSelect(less, x, y) : b.CreateSelect(less, y, x);
}

// The reduction over the sub-group, in every work-item: down a tree to lane
// 0 (each lane taking the one `offset` above it while that one exists), then
// broadcast from lane 0.
llvm::Value *reduce(llvm::IRBuilder<> &b, const Warp &w, llvm::StringRef op, llvm::Value *x,
                    bool isSignedType) {
    for (unsigned offset = kWarp / 2; offset >= 1; offset /= 2) {
        llvm::Value *other = shuffle(b, Shuffle::down, w, x, b.getInt32(offset));
        llvm::Value *exists = b.CreateICmpULT(b.CreateAdd(w.lane, b.getInt32(offset)), w.size);
        x = b.CreateSelect(exists, combine(b, op, x, other, isSignedType), x);
    }
    return shuffle(b, Shuffle::index, w, x, b.getInt32(0));
}

// The inclusive scan: each lane takes the one `offset` below it while that
// one exists, offsets doubling.
llvm::Value *scanInclusive(llvm::IRBuilder<> &b, const Warp &w, llvm::StringRef op, llvm::Value *x,
                           bool isSignedType) {
    for (unsigned offset = 1; offset < kWarp; offset *= 2) {
        llvm::Value *other = shuffle(b, Shuffle::up, w, x, b.getInt32(offset));
        llvm::Value *exists = b.CreateICmpUGE(w.lane, b.getInt32(offset));
        x = b.CreateSelect(exists, combine(b, op, x, other, isSignedType), x);
    }
    return x;
}

// What replaces one call, or nothing for a call this does not know (left
// alone: the translation names it as undefined).
std::optional<llvm::Value *> replacement(llvm::CallInst &call, llvm::StringRef name,
                                         llvm::StringRef params) {
    llvm::IRBuilder<> b(&call);
    llvm::Type *result = call.getType();
    auto asResult = [&](llvm::Value *v) { return b.CreateZExtOrTrunc(v, result); };
    const Warp w = warpOf(b);

    if (name == "get_sub_group_size")
        return asResult(w.size);
    if (name == "get_max_sub_group_size")
        return llvm::ConstantInt::get(result, kWarp);
    if (name == "get_sub_group_local_id")
        return asResult(w.lane);
    if (name == "get_sub_group_id")
        return asResult(w.id);
    if (name == "get_num_sub_groups" || name == "get_enqueued_num_sub_groups")
        return asResult(
            b.CreateLShr(b.CreateAdd(linearLocalSize(b), b.getInt64(kWarp - 1)), b.getInt64(5)));
    if (name == "sub_group_barrier") {
        b.CreateIntrinsic(llvm::Intrinsic::nvvm_bar_warp_sync, {}, {w.mask});
        return nullptr;
    }
    // Work-item i of a sub-group of size S moves element k of its value from
    // or to p[k * S + i].
    if (name.startswith("intel_sub_group_block_"))
        return ze_driver::detail::intelBlockAccess(
            b, call, name.startswith("intel_sub_group_block_read"), [&](unsigned k) {
                return b.CreateZExt(b.CreateAdd(b.CreateMul(b.getInt32(k), w.size), w.lane),
                                    b.getInt64Ty());
            });
    if (call.arg_size() == 0)
        return std::nullopt;
    llvm::Value *x = call.getArgOperand(0);
    if ((name == "sub_group_all" || name == "sub_group_any") && x->getType()->isIntegerTy()) {
        llvm::Value *vote = b.CreateIntrinsic(
            name == "sub_group_all" ? llvm::Intrinsic::nvvm_vote_all_sync
                                    : llvm::Intrinsic::nvvm_vote_any_sync,
            {}, {w.mask, b.CreateICmpNE(x, llvm::Constant::getNullValue(x->getType()))});
        return asResult(vote);
    }
    if (x->getType() != result)
        return std::nullopt;
    // Intel's shuffles across two sub-groups' worth of values: down takes
    // lane + delta of `current`, past the sub-group's end from `next`; up
    // takes lane - delta of `current`, below lane 0 from `previous`.
    if ((name == "intel_sub_group_shuffle_down" || name == "intel_sub_group_shuffle_up") &&
        call.arg_size() == 3) {
        const bool down = name == "intel_sub_group_shuffle_down";
        llvm::Value *delta = b.CreateZExtOrTrunc(call.getArgOperand(2), b.getInt32Ty());
        llvm::Value *current = call.getArgOperand(down ? 0 : 1);
        llvm::Value *other = call.getArgOperand(down ? 1 : 0);
        llvm::Value *source =
            down ? b.CreateAdd(w.lane, delta) : b.CreateSub(b.CreateAdd(w.lane, w.size), delta);
        // down: inside while below size; up: inside while at or above size.
        llvm::Value *inside =
            down ? b.CreateICmpULT(source, w.size) : b.CreateICmpUGE(source, w.size);
        llvm::Value *fromCurrent =
            b.CreateSelect(inside, down ? source : b.CreateSub(source, w.size), b.getInt32(0));
        llvm::Value *fromOther =
            b.CreateSelect(inside, b.getInt32(0), down ? b.CreateSub(source, w.size) : source);
        llvm::Value *a = shuffle(b, Shuffle::index, w, current, fromCurrent);
        llvm::Value *c = shuffle(b, Shuffle::index, w, other, fromOther);
        if (!a || !c)
            return std::nullopt;
        return b.CreateSelect(inside, a, c);
    }
    if (name == "intel_sub_group_shuffle" || name == "sub_group_broadcast" ||
        name == "intel_sub_group_broadcast") {
        if (call.arg_size() != 2)
            return std::nullopt;
        llvm::Value *v = shuffle(b, Shuffle::index, w, x, call.getArgOperand(1));
        return v ? std::optional<llvm::Value *>(v) : std::nullopt;
    }
    if (name == "intel_sub_group_shuffle_xor" && call.arg_size() == 2) {
        llvm::Value *v = shuffle(b, Shuffle::xorLanes, w, x, call.getArgOperand(1));
        return v ? std::optional<llvm::Value *>(v) : std::nullopt;
    }
    // cl_intel_subgroups' reductions and scans are cl_khr_subgroups' under
    // another name (and for more types).
    if (name.startswith("intel_sub_group_"))
        name = name.drop_front(std::strlen("intel_"));
    if (!(result->isIntegerTy() || result->isFloatingPointTy()) || result->isIntegerTy(1))
        return std::nullopt;
    const char element = params.empty() ? 'i' : params.front();
    const bool signedType = ze_driver::detail::isSignedElement(element);
    for (const char *op : {"add", "min", "max"}) {
        if (name == std::string("sub_group_reduce_") + op)
            return reduce(b, w, op, x, signedType);
        if (name == std::string("sub_group_scan_inclusive_") + op)
            return scanInclusive(b, w, op, x, signedType);
        if (name == std::string("sub_group_scan_exclusive_") + op) {
            // The inclusive scan of the lane below; the identity at lane 0.
            llvm::Value *inclusive = scanInclusive(b, w, op, x, signedType);
            llvm::Value *below = shuffle(b, Shuffle::up, w, inclusive, b.getInt32(1));
            return b.CreateSelect(b.CreateICmpEQ(w.lane, b.getInt32(0)),
                                  ze_driver::detail::subGroupIdentity(result, op, element), below);
        }
    }
    return std::nullopt;
}

} // namespace

unsigned resolveWarpSubGroupBuiltins(llvm::Module &module) {
    return ze_driver::detail::rewriteSubGroupCalls(module, replacement);
}

} // namespace ze_cuda
