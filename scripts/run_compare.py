#!/usr/bin/env python3
"""Run-and-compare: every case of a kernel suite (benchmarks/kernel_suite.hpp)
run once on this project's stack and on an OpenCL platform, each case in a
process of its own (bench_cuda_vs_opencl with BENCH_COMPARE_ONLY), so that a
kernel that faults or hangs is reported and the others go on.

    scripts/run_compare.py BENCH SUITE LOGDIR [--jobs N] [--timeout S]

BENCH is build/benchmarks/bench_cuda_vs_opencl; the environment chooses the
sides as for it: ZE_ENABLE_ALT_DRIVERS (libze_cuda.so on the GPU,
libze_opencl.so on the CPU), BENCH_OPENCL_PLATFORM (NVIDIA, or Portable for
PoCL), BENCH_SAVE_OUTPUTS / BENCH_REFERENCE_OUTPUTS (outputs kept by one run
and compared by another: the CPU driver's against the GPU driver's). A case
whose platform launch ends its process is run again without the platform,
for our side's outcome. Each case's output is kept in LOGDIR/<case>.log; a
line per case and the totals are printed.

Outcomes of a side: ran; not built; refused (the launch call itself failed,
with the code it returned: a group or local memory larger than the device
takes); fault (the process ended during the launch: on the GPU driver a
kernel fault is reported as ZE_RESULT_ERROR_DEVICE_LOST, on the CPU a
faulting kernel takes the process with it); hang (no end within the
timeout); absent (no such platform).
Outputs: same (every buffer bit for bit), or the largest difference
relative to the buffer's largest magnitude, against the platform and
against the reference run.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

DEVICE_LOST = '0x70000001'
# What bench_cuda_vs_opencl prints before it aborts on a launch call that failed.
REFUSED = re.compile(r'(zeCommandListAppendLaunchKernel|clEnqueueNDRangeKernel)\(.*\) failed: (-?\d+)')


def case_names(suite):
    names = []
    for line in open(suite):
        words = line.split()
        if words and not words[0].startswith('#'):
            names.append(words[0])
    return names


def run(bench, suite, name, timeout, without_platform=False):
    env = dict(os.environ, BENCH_KERNEL_SUITE=suite, BENCH_COMPARE_ONLY=name)
    if without_platform:
        env['BENCH_OPENCL_PLATFORM'] = 'no such platform'
    try:
        done = subprocess.run([bench], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              timeout=timeout)
        return done.stdout.decode(errors='replace'), done.returncode
    except subprocess.TimeoutExpired as expired:
        return (expired.stdout or b'').decode(errors='replace'), None


def outcome(log, code, side):
    """ran / not built / fault / hang / absent for 'ours' or 'OpenCL'."""
    if 'not built: %s' % side in log:
        return 'not built'
    launched = 'launch %s' % side in log
    if not launched:
        return 'absent' if side == 'OpenCL' else 'not reached'
    if 'ran ' in log:
        return 'ran'
    # The process ended during this side's launch (the last one announced).
    last = log.rfind('launch ')
    if log[last:].startswith('launch %s' % side):
        if code is None:
            return 'hang'
        if DEVICE_LOST in log:
            return 'fault reported'
        refused = REFUSED.search(log, last)
        return 'refused (%s)' % refused.group(2) if refused else 'fault (exit %d)' % code
    return 'ran'


def largest(log, against):
    """'same', the largest scaled difference, or '-' when nothing compared."""
    found = re.findall(r'against %s\s*: ([\d.]+)%% of \d+ elements differ, by (\S+)' % against,
                       log)
    if not found:
        return '-'
    if all(float(share) == 0 for share, _ in found):
        return 'same'
    return '%.3g' % max(float(by) for _, by in found)


def one(bench, suite, logdir, name, timeout):
    log, code = run(bench, suite, name, timeout)
    theirs = outcome(log, code, 'OpenCL')
    if theirs.startswith(('fault', 'refused')) or theirs == 'hang':
        again, code = run(bench, suite, name, timeout, without_platform=True)
        log += '\n--- again without the platform ---\n' + again
        ours = outcome(again, code, 'ours')
    else:
        ours = outcome(log, code, 'ours')
    with open(os.path.join(logdir, name + '.log'), 'w') as f:
        f.write(log)
    return name, ours, theirs, largest(log, 'OpenCL'), largest(log, 'reference')


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('bench')
    parser.add_argument('suite')
    parser.add_argument('logdir')
    parser.add_argument('--jobs', type=int, default=os.cpu_count())
    parser.add_argument('--timeout', type=float, default=120)
    parser.add_argument('--check', type=float, metavar='TOLERANCE',
                        help='exit 1 unless every case ran on both sides and every output is '
                             'within TOLERANCE of the buffer\'s largest magnitude')
    args = parser.parse_args()
    os.makedirs(args.logdir, exist_ok=True)
    suite = os.path.abspath(args.suite)
    names = case_names(suite)
    totals = {}
    failures = []
    print('%-70s %-16s %-16s %-10s %s' % ('case', 'ours', 'platform', 'vs platform',
                                           'vs reference'))
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(one, args.bench, suite, args.logdir, n, args.timeout)
                   for n in names]
        for future in futures:
            name, ours, theirs, platform, reference = future.result()
            print('%-70s %-16s %-16s %-10s %s' % (name, ours, theirs, platform, reference))
            sys.stdout.flush()
            if args.check is not None:
                far = [v for v in (platform, reference)
                       if v not in ('same', '-') and float(v) > args.check]
                if ours != 'ran' or theirs != 'ran' or far:
                    failures.append(name)
            for key in ('ours ' + ours, 'platform ' + theirs):
                totals[key] = totals.get(key, 0) + 1
            if ours == 'ran':
                for what, value in (('vs platform', platform), ('vs reference', reference)):
                    kind = value if value in ('same', '-') else 'differ'
                    totals['%s %s' % (what, kind)] = totals.get('%s %s' % (what, kind), 0) + 1
    print('\n%d cases' % len(names))
    for key in sorted(totals):
        print('  %-32s %d' % (key, totals[key]))
    if failures:
        print('\nnot run on both sides, or outputs beyond %g: %s' % (args.check, ' '.join(failures)))
        sys.exit(1)


if __name__ == '__main__':
    main()
