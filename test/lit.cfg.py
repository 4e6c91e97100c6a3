# -*- Python -*-
# lit configuration of the cmm test suite: .mlir and .cmm tests under test/.

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "CMM"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".cmm", ".test"]
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Inputs", "Embedding",
                   "unittests"]

config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.cmm_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(("%cmm_src", config.cmm_src_root))
config.substitutions.append(("%examples", os.path.join(config.cmm_src_root, "examples")))

# Keep the pinned OpenBLAS kernel (OPENBLAS_CORETYPE) of the machine.
for var in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "OPENBLAS_NUM_THREADS"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

# A sanitizer build's options, the lit test's own Open MPI session base and
# its MPI layer (test/CMakeLists.txt) reach the tools.
for var in ("ASAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS",
            "OMPI_MCA_mca_base_component_disable_dlclose",
            "OMPI_MCA_orte_tmpdir_base", "OMPI_MCA_pml"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
# The feature `sanitize`: the end-to-end sweeps that take minutes under ASan
# at -O0 (every example on many plans) say UNSUPPORTED: sanitize; the
# release build runs them, and the sanitizer build the rest.
if config.cmm_sanitize:
    config.available_features.add("sanitize")

llvm_config.use_default_substitutions()

tool_dirs = [config.cmm_tools_dir, config.llvm_tools_dir]
tools = ["cmm-opt", "cmm-translate", "cmmc", "cmm-lsp-server"]
llvm_config.add_tool_substitutions(tools, tool_dirs)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
# Scripts run by the tests call the cmm tools by name.
llvm_config.with_environment("PATH", config.cmm_tools_dir, append_path=True)

# CMake checked that this Python has NumPy (the oracle of several tests).
config.available_features.add("numpy")
