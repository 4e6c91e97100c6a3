//===- Build.cpp - Compile and run generated programs -----------*- C++ -*-===//

#include "Build.h"

#include "CmmcConfig.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <cstdlib>
#include <thread>

extern char **environ;

using namespace llvm;

/// An executable: the environment variable `envVar` if set, else `configured`
/// if it exists, else `name` on PATH.
static std::string findTool(const char *envVar, StringRef configured,
                            StringRef name) {
  if (const char *env = std::getenv(envVar); env && *env) {
    if (sys::fs::can_execute(env))
      return env;
    if (StringRef(env).contains('/'))
      return "";
    if (ErrorOr<std::string> found = sys::findProgramByName(env))
      return *found;
    return "";
  }
  if (!configured.empty() && sys::fs::can_execute(configured))
    return configured.str();
  if (ErrorOr<std::string> found = sys::findProgramByName(name))
    return *found;
  return "";
}

/// A directory of the runtime: the environment variable `envVar` if set,
/// else `sub` (include, lib) beside the directory of cmmc itself, as in an
/// install prefix and in the build tree (bin/cmmc, lib/, include/).
static std::string runtimeDir(const char *envVar, StringRef sub) {
  if (const char *env = std::getenv(envVar); env && *env)
    return env;
  static int anchor;
  SmallString<256> dir(sys::fs::getMainExecutable("cmmc", &anchor));
  sys::path::remove_filename(dir); // bin/
  sys::path::remove_filename(dir); // the prefix
  sys::path::append(dir, sub);
  return dir.str().str();
}

bool cmmc::compileProgram(StringRef cppPath, StringRef outputPath,
                          std::string &error) {
  std::string mpicxx = findTool("CMM_MPICXX", CMMC_MPICXX, "mpicxx");
  if (mpicxx.empty()) {
    error = "mpicxx not found" +
            std::string(std::getenv("CMM_MPICXX")
                            ? " (CMM_MPICXX is set to '" +
                                  std::string(std::getenv("CMM_MPICXX")) + "')"
                            : "") +
            ": install Open MPI's compiler wrapper (apt-get install "
            "libopenmpi-dev) or set CMM_MPICXX";
    return false;
  }
  std::string includeDir = runtimeDir("CMM_RUNTIME_INCLUDE_DIR", "include");
  std::string libDir = runtimeDir("CMM_RUNTIME_LIBRARY_DIR", "lib");
  SmallString<256> runtimeLib(libDir), runtimeHeader(includeDir);
  sys::path::append(runtimeLib, "libcmmrt_mpi.a");
  sys::path::append(runtimeHeader, "cmmrt", "Plan.h");
  if (!sys::fs::exists(runtimeLib) || !sys::fs::exists(runtimeHeader)) {
    error = "the cmm runtime is missing (" +
            (sys::fs::exists(runtimeLib) ? runtimeHeader : runtimeLib)
                .str()
                .str() +
            "): build the project (ninja -C build), install it (cmake "
            "--install), or set CMM_RUNTIME_LIBRARY_DIR and "
            "CMM_RUNTIME_INCLUDE_DIR";
    return false;
  }

  // The flags the runtime's precompiled headers were made with
  // (runtime/CMakeLists.txt): the compile reads them instead of parsing.
  std::vector<std::string> args = {mpicxx};
  auto addFlags = [&](StringRef flags) {
    SmallVector<StringRef> split;
    flags.split(split, ' ', -1, false);
    for (StringRef flag : split)
      args.push_back(flag.str());
  };
  addFlags(CMMC_PROGRAM_CXX_FLAGS);
  addFlags(CMMC_SANITIZE_FLAGS);
  addFlags(CMMC_PROGRAM_LINK_FLAGS);
  for (std::string arg : {cppPath.str(), "-I" + includeDir, "-L" + libDir,
                          std::string("-lcmmrt_mpi"), std::string("-lcmmrt")})
    args.push_back(std::move(arg));
  SmallVector<StringRef> libraries;
  StringRef(CMMC_RUNTIME_LIBRARIES).split(libraries, ';', -1, false);
  for (StringRef lib : libraries)
    args.push_back(lib.str());
  args.push_back("-lpthread");
  args.push_back("-o");
  args.push_back(outputPath.str());

  // The wrapper's environment: this one, with CMMC_PROGRAM_CXX_ENV's
  // variable replaced (a sanitizer build's compiler).
  std::optional<ArrayRef<StringRef>> env;
  std::vector<StringRef> envStorage;
  StringRef programEnv(CMMC_PROGRAM_CXX_ENV);
  if (!programEnv.empty()) {
    StringRef name = programEnv.split('=').first;
    for (char **var = environ; *var; ++var)
      if (StringRef(*var).split('=').first != name)
        envStorage.push_back(*var);
    envStorage.push_back(programEnv);
    env = envStorage;
  }

  SmallString<128> log;
  sys::fs::createTemporaryFile("cmmc-cxx", "log", log);
  std::optional<StringRef> redirects[] = {std::nullopt, log.str(), log.str()};
  std::vector<StringRef> argv(args.begin(), args.end());
  std::string execError;
  int rc = sys::ExecuteAndWait(mpicxx, argv, env, redirects, 0, 0, &execError);
  std::string output;
  if (auto buffer = MemoryBuffer::getFile(log))
    output = (*buffer)->getBuffer().str();
  sys::fs::remove(log);
  if (rc == 0)
    return true;
  error = "compiling the generated program failed (" + join(args, " ") + ")";
  if (!execError.empty())
    error += ": " + execError;
  if (StringRef(output).contains("lopenblas") ||
      StringRef(output).contains("cblas.h"))
    error += "\nOpenBLAS is missing: apt-get install libopenblas-dev";
  if (StringRef(output).contains("sleef"))
    error += "\nSLEEF is missing: apt-get install libsleef-dev";
  if (!output.empty())
    error += "\n" + output;
  return false;
}

std::vector<std::string> cmmc::launchCommand(StringRef program,
                                             const RunOptions &options,
                                             std::string &error) {
  std::vector<std::string> args;
  auto passThrough = [&](std::string executable) {
    for (const std::string &a : options.launcherArgs)
      args.push_back(a);
    args.push_back(std::move(executable));
    for (const std::string &a : options.programArgs)
      args.push_back(a);
  };
  if (options.launcher == "srun") {
    if (!options.hostfile.empty() || options.preloadBinary) {
      error = std::string(options.hostfile.empty() ? "--preload-binary"
                                                   : "--hostfile") +
              " is mpirun's: under Slurm the allocation decides the hosts, "
              "and the program must be on a file system every node sees";
      return {};
    }
    std::string srun = findTool("CMM_SRUN", "", "srun");
    args = {srun.empty() ? "srun" : srun,
            "--ntasks=" + std::to_string(options.ranks), "--ntasks-per-node=1",
            "--cpu-bind=none"};
    passThrough(program.str());
    return args;
  }
  if (options.launcher != "mpirun") {
    error = "unknown launcher '" + options.launcher + "' (mpirun or srun)";
    return {};
  }
  // One rank on this machine starts like any program: as an MPI singleton,
  // without mpirun's daemons (cmmrt/Startup.h).
  if (options.ranks == 1 && options.hostfile.empty() &&
      options.launcherArgs.empty() && !options.preloadBinary) {
    passThrough(program.contains('/') ? program.str() : "./" + program.str());
    return args;
  }
  std::string mpirun = findTool("CMM_MPIRUN", CMMC_MPIEXEC, "mpirun");
  if (mpirun.empty()) {
    error = "mpirun not found: install Open MPI (apt-get install "
            "openmpi-bin) or set CMM_MPIRUN to an executable";
    return {};
  }
  // The executor runs worker, BLAS and communicator threads in each rank:
  // Open MPI's default binding of a rank to one core would serialise them.
  args = {mpirun, "-np", std::to_string(options.ranks), "--bind-to", "none"};
  bool mapped = llvm::any_of(options.launcherArgs, [](StringRef a) {
    return a.starts_with("--map-by") || a.starts_with("-map-by");
  });
  bool choosesLayer = std::getenv("OMPI_MCA_pml") ||
                      llvm::any_of(options.launcherArgs, [](StringRef a) {
                        return a.contains("pml");
                      });
  if (options.hostfile.empty() && !choosesLayer) {
    // Ranks on this machine only: the shared-memory `ob1` layer, without
    // probing the network layers of `cm` (0.2 s of every start here).
    args.insert(args.end(), {"--mca", "pml", "ob1"});
  }
  if (!options.hostfile.empty()) {
    args.push_back("--hostfile");
    args.push_back(options.hostfile);
    // Without a policy Open MPI fills the first host's slots first, and a
    // plan of N nodes would run on one host (issue 16).
    if (!mapped) {
      args.push_back("--map-by");
      args.push_back("ppr:1:node");
    }
  } else if (!mapped && options.ranks >
                            std::max(1u, std::thread::hardware_concurrency())) {
    // More ranks than cores on one machine: Open MPI refuses unless asked.
    args.push_back("--oversubscribe");
  }
  if (options.preloadBinary)
    args.push_back("--preload-binary");
  passThrough(program.str());
  return args;
}

int cmmc::runProgram(StringRef program, const RunOptions &options,
                     std::string &error) {
  std::vector<std::string> args = launchCommand(program, options, error);
  if (args.empty())
    return -1;
  std::string launcher = args.front();
  if (!sys::path::is_absolute(launcher)) {
    auto found = sys::findProgramByName(launcher);
    if (!found) {
      error = launcher + " not found" +
              (options.launcher == "srun"
                   ? std::string(": run inside a Slurm installation, or set "
                                 "CMM_SRUN")
                   : std::string());
      return -1;
    }
    launcher = *found;
  }
  std::vector<StringRef> argv(args.begin(), args.end());
  std::string execError;
  int rc =
      sys::ExecuteAndWait(launcher, argv, std::nullopt, {}, 0, 0, &execError);
  if (rc < 0) {
    error = "cannot run " + launcher + ": " + execError;
    return -1;
  }
  return rc;
}
