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
  std::string hostfile;
  std::vector<std::string> programArgs;
};

/// Runs `program` under mpirun; returns its exit code, or -1 with a message.
int runProgram(llvm::StringRef program, const RunOptions &options,
               std::string &error);

} // namespace cmmc

#endif // CMMC_BUILD_H
