// Loops testing a condition nothing in them changes (uniform_unswitch.hpp).
// Each loop leaves on its data (Collatz steps), so that no unrolling adds
// loops of its own: the PTX test counts the loops.

// One rule of two for all work-items, by the kernel's argument `rule`: the
// loop becomes two, the rule tested once before them.
kernel void collatz_uniform_rule(global uint *steps, global const uint *start, int rule,
                                 uint limit) {
    const size_t id = get_global_id(0);
    uint h = start[id], k = 0;
    while (h > 1 && k < limit) {
        if (rule == 3)
            h = (h & 1) ? 3 * h + 1 : h / 2;
        else
            h = (h & 1) ? h + 1 : h / 4 + 1;
        ++k;
    }
    steps[id] = k;
}

// The rule by the work-item's id: work-items of a warp disagree, and two
// loops would run one after the other. One loop.
kernel void collatz_item_rule(global uint *steps, global const uint *start, int rule,
                              uint limit) {
    const size_t id = get_global_id(0);
    uint h = start[id], k = 0;
    while (h > 1 && k < limit) {
        if ((int)(id & 3) == rule)
            h = (h & 1) ? 3 * h + 1 : h / 2;
        else
            h = (h & 1) ? h + 1 : h / 4 + 1;
        ++k;
    }
    steps[id] = k;
}
