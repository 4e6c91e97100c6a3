//===- MLIRGenImpl.h - The tracer's state, shared by its parts --*- C++ -*-===//
//
// The tracer of MLIRGen.h, split by what it traces: statements and
// expressions (MLIRGen.cpp), control flow, conditions and user functions
// (MLIRGenControl.cpp), indexing and concatenation (MLIRGenBlocks.cpp), and
// the built-in functions (MLIRGenBuiltins.cpp). Private to lib/Frontend.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_LIB_FRONTEND_MLIRGENIMPL_H
#define CMM_LIB_FRONTEND_MLIRGENIMPL_H

#include "cmm/Dialect/Cmm/CmmDialect.h"
#include "cmm/Frontend/AST.h"
#include "cmm/Frontend/MLIRGen.h"
#include "cmmrt/Format.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/SourceMgr.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cmm::mlirgen {

using llvm::SMLoc;
using mlir::Value;

/// What a `.cmm` expression evaluates to while tracing.
struct TraceValue {
  Value matrix;      // set for a matrix
  double scalar = 0; // the value of a compile-time scalar otherwise

  static TraceValue ofScalar(double v) { return {Value(), v}; }
  static TraceValue ofMatrix(Value v) { return {v, 0}; }
  bool isScalar() const { return !matrix; }
};

using MaybeValue = std::optional<TraceValue>;

/// How tracing a statement ended: go on with the next one, leave the
/// innermost loop, return from the function, stop after an error, or
/// Mixed: a construct decided at run time whose paths end in more than one
/// of these ways (MLIRGenImpl::mixedExits says which; flags in the trace
/// environment say which at run time).
enum class Flow { Next, Break, Return, Failed, Mixed };
/// The ways a path leaves a statement, as a set.
enum Exit : uint8_t { ExitNext = 1, ExitBreak = 2, ExitReturn = 4 };

/// Names in the trace environment that no variable can take (a name has no
/// parentheses). A `break` or `return` decided at run time sets a 1x1 flag
/// that run-time constructs carry like a variable: the innermost loop's
/// "broken" flag, the function's "returned" flag, and the value returned.
constexpr llvm::StringLiteral kBrokenFlag = "(break)";
constexpr llvm::StringLiteral kReturnedFlag = "(return)";
constexpr llvm::StringLiteral kResultName = "(result)";

/// The names `stmts` assign (to a whole variable or a block of one), in
/// nested blocks too; a `for` variable is the loop's own. A `break` of
/// this loop and a `return` assign their flags (kBrokenFlag, kReturnedFlag,
/// kResultName). MLIRGenControl.cpp.
void collectAssigned(llvm::ArrayRef<StmtPtr> stmts,
                     llvm::SetVector<llvm::StringRef> &names);
inline bool isFlowName(llvm::StringRef name) { return name.starts_with("("); }

/// A construct being traced around the current statement: a `for` or
/// compile-time `while` iteration, or a user function's call. Errors inside
/// name each, innermost first.
struct Frame {
  /// RunTimeLoop, RunTime: the body of a cmm.while, a branch of a cmm.if
  /// (each traced once).
  enum Kind { For, While, Call, RunTimeLoop, RunTime } kind;
  SMLoc loc;            // the loop's keyword, or the call
  llvm::StringRef name; // the loop variable, or the callee
};
/// Largest matrix dimension and element count.
constexpr int64_t kMaxDim = int64_t(1) << 31;
constexpr int64_t kMaxElements = int64_t(1) << 40;

class MLIRGenImpl {
public:
  MLIRGenImpl(mlir::MLIRContext &ctx, llvm::SourceMgr &sm,
              const MLIRGenOptions &options)
      : builder(&ctx), sm(sm), options(options) {
    builder.setListener(&opCounter);
  }

  mlir::OwningOpRef<mlir::ModuleOp> gen(const Program &program);

private:
  // Statements.
  Flow genStmt(const Stmt &stmt);
  /// The statements in order; after one that may have left at run time
  /// (Flow::Mixed), the rest runs under a cmm.if on the flags (genRest).
  Flow genBlock(llvm::ArrayRef<StmtPtr> stmts);
  Flow genRest(llvm::ArrayRef<StmtPtr> rest, uint8_t exitsSoFar);
  bool genAssign(const AssignStmt &stmt);
  /// `a, b = f(...)`: the results of a built-in with several
  /// (MLIRGenLinalg.cpp).
  bool genSeveralAssign(const AssignStmt &stmt);
  bool genIndexAssign(const IndexAssignStmt &stmt);
  Flow genFor(const ForStmt &stmt);
  Flow genWhile(const WhileStmt &stmt);
  Flow genIf(const IfStmt &stmt, size_t clause = 0);
  /// A `while` or `if` whose condition is a 1x1 matrix: cmm.while, cmm.if.
  /// `assigned`: what the loop's body assigns (collectAssigned, once).
  Flow genRunTimeWhile(const WhileStmt &stmt,
                       const llvm::SetVector<llvm::StringRef> &assigned);
  /// One trace of it; `probedResult` (when set) receives the type of the
  /// value a `return` in the body gives, and the loop is traced again.
  Flow traceRunTimeWhile(const WhileStmt &stmt,
                         const llvm::SetVector<llvm::StringRef> &assigned,
                         std::optional<mlir::Type> *probedResult);
  Flow genRunTimeIf(const IfStmt &stmt, size_t clause,
                    const TraceValue &condition);
  /// A cmm.if on `condition` with branches traced by `thenBody` and
  /// `elseBody`; its results are the `assigned` names either may change.
  Flow genBranches(const TraceValue &condition, SMLoc at,
                   llvm::function_ref<Flow()> thenBody,
                   llvm::function_ref<Flow()> elseBody,
                   const llvm::SetVector<llvm::StringRef> &assigned,
                   llvm::StringRef what);
  /// Traces a region's contents (a run-time loop body or branch) with
  /// `trace` inside a frame of `kind`.
  Flow genRegion(llvm::function_ref<Flow()> trace, SMLoc construct,
                 llvm::StringRef what, Frame::Kind kind = Frame::RunTime);
  Flow genBreak(const BreakStmt &stmt);
  /// Whether a `break` (or `return`) at `l` may leave the enclosing
  /// constructs: a 'for' is unrolled, so it cannot be left at run time.
  bool checkLeave(SMLoc l, llvm::StringRef what, bool toFunction);
  /// The ways `flow` leaves (Exit bits); Flow::Mixed reads mixedExits.
  uint8_t exitsOf(Flow flow) const;
  /// The flow of a set of exits: one way, or Flow::Mixed.
  Flow flowOf(uint8_t exits);
  /// 1 where a `break` or `return` decided at run time has happened: the
  /// flags among `names` that are matrices, or-ed; null if none is.
  Value leavingFlag(llvm::ArrayRef<llvm::StringRef> names, SMLoc l);
  /// The trace state at a point of the current block, to trace a construct
  /// again from there (a 'while' traced at compile time whose body turns
  /// out to leave at run time becomes a cmm.while).
  struct RegionLocal {
    SMLoc construct;
    std::string shapes; // empty: assigned only inside the construct
  };
  struct Checkpoint {
    mlir::Block *block;
    mlir::Operation *last; // the last op before; null at the block's start
    llvm::StringMap<TraceValue> env;
    llvm::StringMap<std::pair<size_t, Value>> savedFiles;
    size_t saveCount;
    llvm::StringMap<RegionLocal> regionLocalNames;
    llvm::StringMap<SMLoc> runTimeSavedFiles;
  };
  Checkpoint checkpoint();
  void rollback(const Checkpoint &point);
  /// The value of `name` in the trace environment, if it has one; and
  /// back to that (none: erased).
  std::optional<TraceValue> lookup(llvm::StringRef name) const;
  void restore(llvm::StringRef name, const std::optional<TraceValue> &value);
  /// The value of a variable carried out of a run-time construct: a matrix
  /// of `type`, else an error naming both shapes.
  std::optional<Value> carriedValue(llvm::StringRef name, TraceValue value,
                                    mlir::Type type, SMLoc construct,
                                    llvm::StringRef where);
  Flow genReturn(const ReturnStmt &stmt);
  bool genExprStmt(const ExprStmt &stmt);
  /// `print(e)`, or with `rows` `display(e)` (every row too).
  bool genPrint(const CallExpr &call, bool rows);
  bool genSave(const CallExpr &call);
  /// A condition's truth when it is known while tracing; a run-time
  /// condition (a 1x1 matrix) or any other shape is an error for now.
  /// A condition traced on its own: a compile-time truth, a run-time
  /// (1x1) condition, or an error. Its ops are discarded; a run-time
  /// condition is traced again where it runs.
  enum class Decision { True, False, RunTime, Failed };
  Decision decideCondition(const Expr &condition, llvm::StringRef construct);
  bool registerFunctions(const Program &program);
  /// Traces a call of a user function; `asStatement` allows one that
  /// returns nothing.
  MaybeValue callFunction(const CallExpr &call, const FunctionDef &def,
                          bool asStatement);

  // Expressions.
  MaybeValue eval(const Expr &expr);
  MaybeValue evalBinary(const BinaryExpr &expr);
  MaybeValue evalCall(const CallExpr &call);
  /// The results of a dense linear algebra built-in (chol, qr, svd, ...:
  /// linalgResultCount), or an error at the call.
  std::optional<llvm::SmallVector<Value, 3>>
  evalLinalgCall(const CallExpr &call);
  MaybeValue evalMatrixLiteral(const MatrixExpr &expr);
  MaybeValue evalRange(const RangeExpr &expr);
  MaybeValue evalLogic(const BinaryExpr &expr);
  MaybeValue evalScalarComparison(const BinaryExpr &expr);
  MaybeValue evalNot(const UnaryExpr &expr);
  MaybeValue evalIndex(const IndexExpr &expr);
  MaybeValue evalBlockLiteral(const MatrixExpr &expr,
                              std::vector<std::vector<TraceValue>> elements);
  MaybeValue concat(llvm::ArrayRef<Value> parts, int64_t dim, SMLoc l,
                    llvm::ArrayRef<SMLoc> partLocs);
  MaybeValue foldScalarBinary(TokenKind op, double a, double b);
  MaybeValue broadcastOp(TokenKind op, SMLoc loc, TraceValue lhs,
                         TraceValue rhs);

  // Helpers.
  mlir::Location loc(SMLoc l);
  std::nullopt_t error(SMLoc l, const llvm::Twine &msg);
  Value asMatrix(TraceValue v, SMLoc l);
  std::optional<int64_t> toInteger(const Expr &e, llvm::StringRef what);
  /// The same for a value already traced (from the expression at `l`).
  std::optional<int64_t> asInteger(TraceValue v, SMLoc l, llvm::StringRef what);
  std::optional<int64_t> toDimension(const Expr &e, llvm::StringRef what);
  std::optional<double> toScalar(const Expr &e, llvm::StringRef what);
  std::optional<Value> toMatrix(const Expr &e);
  /// A value in a condition: a compile-time scalar or a 1x1 matrix, else
  /// an error naming `what`.
  MaybeValue toCondition(const Expr &e, llvm::StringRef what);
  /// 1 - v for a 1x1 truth value `v` (a negation).
  Value oneMinus(Value v, SMLoc l);
  /// 1 where `v` is nonzero, else 0 (a 1x1 matrix).
  Value truth(Value v, SMLoc l);
  /// The rows (dim 0) or columns (dim 1) a subscript selects, 1-based and
  /// inclusive, checked against `size`.
  std::optional<std::pair<int64_t, int64_t>>
  toSubscript(const Expr &sub, int64_t size, llvm::StringRef what,
              const IndexExpr &index, const std::string &shape);
  /// The block `index` selects of a `rows` x `cols` value: first row and
  /// column (0-based) and extent.
  struct Block {
    int64_t row0, col0, rows, cols;
  };
  std::optional<Block> toBlock(const IndexExpr &index, int64_t rows,
                               int64_t cols);
  Value slice(Value v, const Block &b, SMLoc l);
  std::optional<std::string> toPath(const Expr &e, llvm::StringRef fn);
  static std::string normalizedPath(llvm::StringRef path);
  std::optional<Value> savedEarlier(llvm::StringRef path);
  bool checkArgCount(const CallExpr &call, size_t lo, size_t hi);
  bool checkSize(SMLoc l, int64_t rows, int64_t cols);
  std::optional<mlir::RankedTensorType> toShape(const CallExpr &call,
                                                size_t first);
  int64_t callId(SMLoc l);
  /// The matrix type `v` has as an operand (a compile-time scalar is 1x1),
  /// without making a constant of it.
  mlir::Type typeOf(const TraceValue &v) {
    return v.isScalar() ? mlir::Type(matrixType(1, 1)) : v.matrix.getType();
  }
  mlir::RankedTensorType matrixType(int64_t rows, int64_t cols) {
    return getMatrixType(builder.getContext(), rows, cols);
  }

  mlir::OpBuilder builder;
  llvm::SourceMgr &sm;
  const MLIRGenOptions &options;
  std::string filename;
  llvm::StringMap<TraceValue> env;
  std::set<std::string> definesUsed;
  /// The trace path: for each enclosing frame, the iteration number of a
  /// loop or a hash of a call's position (rand's call id mixes them in).
  std::vector<int64_t> loopIterations;
  /// The enclosing frames being traced, outermost first (parallel to
  /// loopIterations).
  std::vector<Frame> frames;
  /// The user functions by name, and how deep the current call nests.
  llvm::StringMap<const FunctionDef *> functions;
  size_t callDepth = 0;
  /// The exits of the last Flow::Mixed (Exit bits).
  uint8_t mixedExits = 0;
  /// Files saved inside a construct decided at run time, with its
  /// position: whether the file holds the save's value after it is only
  /// known at run time, so a later `load` of it is an error (for now).
  llvm::StringMap<SMLoc> runTimeSavedFiles;
  /// The files each run-time loop being traced saves in its body, with the
  /// saves counted before it: a load there of such a file before its save
  /// would read the previous iteration's file.
  std::vector<std::pair<std::set<std::string>, size_t>> loopSavedFiles;
  /// After a construct decided at run time at `construct`: the saves traced
  /// in it since `savesBefore` are no longer forwarded to loads.
  void forgetRunTimeSaves(size_t savesBefore, SMLoc construct);
  /// A located error if `load` of `path` is one of the above.
  bool checkLoadOrder(llvm::StringRef path, SMLoc l);
  /// Names with no one value after a run-time construct: assigned only
  /// inside it, or with different shapes on its paths (`shapes` says
  /// which). A use after it is an error that says so (the language: a
  /// variable a branch assigns must keep one shape only if used after).
  llvm::StringMap<RegionLocal> regionLocalNames;
  /// The sizes `end` stands for in the subscripts being traced, innermost
  /// last.
  std::vector<int64_t> endSizes;
  int64_t totalIterations = 0;
  size_t saveCount = 0;
  /// The matrices saved so far, in program order, with the saved path
  /// (lexically normalised): a later `load` of the same file reads back
  /// what the save wrote, and every format round-trips exactly, so the
  /// load is the saved value itself (docs/language.md §9).
  /// Keyed by path; the number orders the saves (the latest wins).
  llvm::StringMap<std::pair<size_t, Value>> savedFiles;
  /// Counts the ops the tracer makes, in regions too (a cmm.while body may
  /// hold an unrolled loop): options.limits.ops bounds them all. Ops traced
  /// again (a loop traced anew as a cmm.while) count again.
  struct OpCounter : mlir::OpBuilder::Listener {
    size_t count = 0;
    void notifyOperationInserted(mlir::Operation *,
                                 mlir::OpBuilder::InsertPoint) override {
      ++count;
    }
  } opCounter;
  bool failed = false;

  size_t countTracedOps() const { return opCounter.count; }
};

inline int64_t rows(Value v) {
  return mlir::cast<mlir::RankedTensorType>(v.getType()).getDimSize(0);
}
inline int64_t cols(Value v) {
  return mlir::cast<mlir::RankedTensorType>(v.getType()).getDimSize(1);
}
inline std::string shapeOf(mlir::Type type) {
  auto tensor = mlir::cast<mlir::RankedTensorType>(type);
  return std::to_string(tensor.getDimSize(0)) + "x" +
         std::to_string(tensor.getDimSize(1));
}
inline std::string shapeOf(Value v) { return shapeOf(v.getType()); }
inline std::string num(double v) { return cmmrt::formatNumber(v); }
/// `v` with as many digits as it takes to read back exactly.
std::string exactNum(double v);
/// The label of `print(expr)`: the expression's source text on one line.
std::string printLabel(llvm::StringRef text);
/// Whether `name` is a built-in function (a user function may not take it).
bool isBuiltin(llvm::StringRef name);
/// The results of the dense linear algebra built-in `name` (qr 2, svd 3,
/// eig 2, chol ... 1); 0 when `name` is not one.
unsigned linalgResultCount(llvm::StringRef name);

} // namespace cmm::mlirgen

#endif // CMM_LIB_FRONTEND_MLIRGENIMPL_H
