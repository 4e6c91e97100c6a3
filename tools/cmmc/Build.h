//===- Build.h - Compile and run generated programs -------------*- C++ -*-===//
//
// cmmc's back half: the generated C++ is compiled with mpicxx against the
// runtime (libcmmrt_mpi, libcmmrt) and OpenBLAS, and `--run` starts it with
// mpirun. Messages say what is missing (mpicxx, mpirun, the runtime) and
// how to install it.
//
//===----------------------------------------------------------------------===//

#ifndef CMMC_BUILD_H
#define CMMC_BUILD_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace cmmc {

/// Compiles the C++ source in `cppPath` to the executable `outputPath`;
/// false with a message (which includes the compiler's own output).
bool compileProgram(llvm::StringRef cppPath, llvm::StringRef outputPath,
                    std::string &error);

struct RunOptions {
  unsigned ranks = 1;
  std::string launcher = "mpirun"; // or "srun"
  std::string hostfile;            // mpirun only
  bool preloadBinary = false;      // mpirun copies the program to each host
  std::vector<std::string> launcherArgs; // passed through, before the program
  std::vector<std::string> programArgs;
};

/// The command that starts `program` on `options.ranks` ranks, one per
/// node: mpirun maps one rank per host of a hostfile (--map-by ppr:1:node)
/// and binds none (the executor runs worker, BLAS and communicator threads);
/// srun asks for one task per node. Empty with a message when the options
/// do not fit the launcher.
std::vector<std::string> launchCommand(llvm::StringRef program,
                                       const RunOptions &options,
                                       std::string &error);

/// Runs launchCommand; returns its exit code, or -1 with a message.
int runProgram(llvm::StringRef program, const RunOptions &options,
               std::string &error);

} // namespace cmmc

#endif // CMMC_BUILD_H
