# lit configuration of the GPUX dialect's tests: imex-opt with FileCheck for
# the dialect, the passes and the conversion; mlir-runner-22 with the
# project's runtime and driver for the end-to-end tests (feature `runtime`).
import os

import lit.formats

config.name = "GPUX"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.gpux_binary_dir, "test")

for name in list(os.environ):
    if name.startswith(("ZE_", "POCL_", "IMEX_L0_", "ASAN_", "LSAN_", "TSAN_")) or name in (
            "HOME", "TMPDIR"):
        config.environment[name] = os.environ[name]
config.environment["PATH"] = os.pathsep.join([
    os.path.join(config.gpux_binary_dir, "bin"), config.llvm_tools_dir,
    config.environment.get("PATH", "/usr/bin:/bin")])

if config.interop_library and config.ze_driver and config.mlir_runner:
    config.available_features.add("runtime")
    config.environment.setdefault("ZE_ENABLE_ALT_DRIVERS", config.ze_driver)
    config.substitutions.append(
        ("%run", "%s --shared-libs=%s,%s,%s --entry-point-result=void"
         % (config.mlir_runner, config.interop_library, config.runner_utils,
            config.c_runner_utils)))
