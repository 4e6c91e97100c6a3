//===- MLIRGenLeave.cpp - break and return decided at run time --*- C++ -*-===//
//
// A `break` or `return` under a cmm.if sets a flag (kBrokenFlag,
// kReturnedFlag; the value in kResultName) that the run-time constructs
// around it carry like a variable. The statements after a construct that
// may have left run under a cmm.if on the flags (genRest), and a cmm.while
// whose body may break tests its flag before its condition, which is then
// not evaluated at all (as in Julia). A loop traced at compile time whose
// body turns out to leave at run time is rolled back (checkpoint, rollback)
// and traced again as a cmm.while (docs/language.md §14.2).
//
//===----------------------------------------------------------------------===//

#include "MLIRGenImpl.h"

#include "cmm/Frontend/Diagnostic.h"

using namespace cmm;
using namespace cmm::mlirgen;

uint8_t MLIRGenImpl::exitsOf(Flow flow) const {
  switch (flow) {
  case Flow::Next:
    return ExitNext;
  case Flow::Break:
    return ExitBreak;
  case Flow::Return:
    return ExitReturn;
  case Flow::Mixed:
    return mixedExits;
  case Flow::Failed:
    break;
  }
  return 0;
}

Flow MLIRGenImpl::flowOf(uint8_t exits) {
  if (exits == ExitNext)
    return Flow::Next;
  if (exits == ExitBreak)
    return Flow::Break;
  if (exits == ExitReturn)
    return Flow::Return;
  mixedExits = exits;
  return Flow::Mixed;
}

Value MLIRGenImpl::leavingFlag(llvm::ArrayRef<llvm::StringRef> names, SMLoc l) {
  Value flag;
  for (llvm::StringRef name : names) {
    std::optional<TraceValue> v = lookup(name);
    if (!v || v->isScalar())
      continue; // unset, or known while tracing (0 here: else no Mixed)
    flag =
        flag ? MaxOp::create(builder, loc(l), matrixType(1, 1), flag, v->matrix)
                   .getResult()
             : v->matrix;
  }
  return flag;
}

bool MLIRGenImpl::checkLeave(SMLoc l, llvm::StringRef what, bool toFunction) {
  bool decidedAtRunTime = false;
  for (size_t d = frames.size(); d-- > 0;) {
    const Frame &f = frames[d];
    if (f.kind == Frame::Call)
      return true;
    if (f.kind == Frame::RunTime || f.kind == Frame::RunTimeLoop) {
      if (!toFunction && f.kind == Frame::RunTimeLoop)
        return true;
      decidedAtRunTime = true;
      continue;
    }
    if (f.kind == Frame::For && decidedAtRunTime) {
      error(l, "this '" + what +
                   "' is decided at run time (a condition around it depends "
                   "on matrix values), so it cannot leave the 'for' loop at "
                   "line " +
                   llvm::Twine(sm.getLineAndColumn(f.loc).first) +
                   ": a 'for' is unrolled at compile time; write that loop "
                   "as a 'while'");
      return false;
    }
    // A 'while' traced at compile time whose body leaves at run time is
    // traced again as a cmm.while (genWhile).
    if (!toFunction)
      return true;
  }
  return true;
}

Flow MLIRGenImpl::genBreak(const BreakStmt &stmt) {
  if (!checkLeave(stmt.getLoc(), "break", /*toFunction=*/false))
    return Flow::Failed;
  env[kBrokenFlag] = TraceValue::ofScalar(1);
  return Flow::Break;
}

Flow MLIRGenImpl::genReturn(const ReturnStmt &stmt) {
  if (!checkLeave(stmt.getLoc(), "return", /*toFunction=*/true))
    return Flow::Failed;
  if (stmt.getValue()) {
    MaybeValue value = eval(*stmt.getValue());
    if (!value)
      return Flow::Failed;
    env[kResultName] = *value;
  }
  env[kReturnedFlag] = TraceValue::ofScalar(1);
  return Flow::Return;
}

Flow MLIRGenImpl::genRest(llvm::ArrayRef<StmtPtr> rest, uint8_t exitsSoFar) {
  SMLoc at = rest.front()->getLoc();
  Value leaving = leavingFlag({kBrokenFlag, kReturnedFlag}, at);
  uint8_t left = exitsSoFar & ~ExitNext;
  if (!leaving) { // known while tracing: no path has left
    Flow flow = genBlock(rest);
    return flow == Flow::Failed ? flow : flowOf(left | exitsOf(flow));
  }
  llvm::SetVector<llvm::StringRef> assigned;
  collectAssigned(rest, assigned);
  // The paths that have left keep what they had; their exits are those
  // before, the others' are the rest's.
  return genBranches(
      TraceValue::ofMatrix(leaving), at, [&] { return flowOf(left); },
      [&] { return genBlock(rest); }, assigned,
      "the statements after a 'break' or 'return' decided at run time");
}

MLIRGenImpl::Checkpoint MLIRGenImpl::checkpoint() {
  mlir::Block *block = builder.getInsertionBlock();
  assert(builder.getInsertionPoint() == block->end() &&
         "the tracer appends to its block");
  return {block,
          block->empty() ? nullptr : &block->back(),
          env,
          savedFiles,
          saveCount,
          regionLocalNames,
          runTimeSavedFiles};
}

void MLIRGenImpl::rollback(const Checkpoint &point) {
  // Ops are only appended, so what came after `last` is what was traced
  // since; each is used only by later ones.
  while (!point.block->empty() && &point.block->back() != point.last)
    point.block->back().erase();
  env = point.env;
  savedFiles = point.savedFiles;
  saveCount = point.saveCount;
  regionLocalNames = point.regionLocalNames;
  runTimeSavedFiles = point.runTimeSavedFiles;
}
