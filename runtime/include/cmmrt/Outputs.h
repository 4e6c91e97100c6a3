//===- Outputs.h - A program's prints and saves, in order -------*- C++ -*-===//
//
// Rank 0 writes a compiled program's outputs (print lines, each printed
// matrix as .npy with --dump-prints, saves) in source order, each as soon
// as it and every output before it are complete, with stdout flushed after
// each: a job killed at its wall-time limit keeps what it had finished, as
// the interpreter's output does (it writes each statement's output when it
// runs). Until 2026-11-27 they were all written after the run.
//
//===----------------------------------------------------------------------===//

#ifndef CMMRT_OUTPUTS_H
#define CMMRT_OUTPUTS_H

#include "cmmrt/Matrix.h"
#include "cmmrt/Plan.h"

#include <cstdint>
#include <functional>
#include <string>

namespace cmmrt {

/// An output's value when it is complete: a print's line (made from the
/// tiles) or the gathered matrix of a print or save; neither before.
struct CompleteOutput {
  const std::string *line = nullptr;
  const Matrix *matrix = nullptr;
  bool complete() const { return line || matrix; }
};

class OutputWriter {
public:
  /// `dumpPrints`: a directory that receives every printed matrix as
  /// print<N>.npy (N counting from `firstDumped`), or "" for none.
  explicit OutputWriter(const plan::Plan &plan, std::string dumpPrints = "",
                        int firstDumped = 0);

  /// Writes the outputs not written yet whose ops come before `before`, in
  /// source order, stdout flushed after each, stopping at the first that
  /// `find` (given its op index) says is not complete. After an error (a
  /// save or a write to stdout that failed, reported on stderr as
  /// `cmm: rank 0: file:line:col: error: ... (task 'name')` and the source
  /// line, docs/language.md section 10) nothing more is written. Returns
  /// false once an error has happened.
  bool writeComplete(int32_t before,
                     const std::function<CompleteOutput(int32_t)> &find);
  /// After the run: every output must have been written; one that was not
  /// (its result never gathered) is an internal error. False after any error.
  bool finish();

  /// Outputs written so far.
  int32_t written() const { return next; }
  bool ok() const { return good; }
  /// The number the next dumped print gets.
  int nextDumped() const { return dumped; }

private:
  /// The name of the task that gathers op `op`'s result on rank 0.
  std::string gatherTaskName(int32_t op) const;
  /// Prints the error of output `op` on stderr (docs/reliability.md).
  void report(int32_t op, const std::string &error) const;

  const plan::Plan &plan;
  std::string dumpPrints;
  int32_t next = 0; // the first unwritten entry of plan.outputs
  int dumped = 0;   // printed matrices written to dumpPrints
  bool good = true;
};

} // namespace cmmrt

#endif // CMMRT_OUTPUTS_H
