//===- TaskGraphOps.cpp - Verifiers of the cmmtg dialect --------*- C++ -*-===//
//
// Each task kind checks its arity and, as far as they are determined, its
// tile shapes. The graph checks placement: a value is located where it was
// made (a task's node, a recv's destination) and may only be used there, and
// no value is used after it was evicted. Messages name the op and both nodes
// or shapes involved.
//
//===----------------------------------------------------------------------===//

#include "cmm/Dialect/TaskGraph/TaskGraphDialect.h"
#include "cmmrt/Factorizations.h"
#include "cmmrt/Kernels.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <algorithm>
#include <cmath>
#include <string>

using namespace mlir;
using namespace cmm::tg;

/// `cmmtg.op`'s code, printed and parsed by its name in OpCodes.def.
static ParseResult parseOpCode(OpAsmParser &parser, IntegerAttr &code) {
  std::string name;
  SMLoc at = parser.getCurrentLocation();
  if (parser.parseKeywordOrString(&name))
    return failure();
  cmmrt::plan::OpCode value;
  if (!cmmrt::plan::opCodeFromName(name.c_str(), value))
    return parser.emitError(at, "unknown op code '") << name << "'";
  code = parser.getBuilder().getI32IntegerAttr(static_cast<int32_t>(value));
  return success();
}

static void printOpCode(OpAsmPrinter &printer, Operation *, IntegerAttr code) {
  printer << cmmrt::plan::opCodeName(
      static_cast<cmmrt::plan::OpCode>(code.getInt()));
}

/// `cmmtg.task`'s kind, printed and parsed by its name in TaskKinds.def.
static ParseResult parseTaskKind(OpAsmParser &parser, IntegerAttr &kind) {
  std::string name;
  SMLoc at = parser.getCurrentLocation();
  if (parser.parseKeywordOrString(&name))
    return failure();
  TaskKind value;
  if (!cmmrt::plan::taskKindFromName(name.c_str(), value))
    return parser.emitError(at, "unknown task kind '") << name << "'";
  kind = parser.getBuilder().getI32IntegerAttr(static_cast<int32_t>(value));
  return success();
}

static void printTaskKind(OpAsmPrinter &printer, Operation *,
                          IntegerAttr kind) {
  printer << stringifyTaskKind(static_cast<TaskKind>(kind.getInt()));
}

/// `cmmtg.task`'s cost class, printed and parsed by its name in
/// CostClasses.def.
static ParseResult parseCostClass(OpAsmParser &parser, IntegerAttr &cost) {
  std::string name;
  SMLoc at = parser.getCurrentLocation();
  if (parser.parseKeywordOrString(&name))
    return failure();
  CostClass value;
  if (!cmmrt::plan::costClassFromName(name.c_str(), value))
    return parser.emitError(at, "unknown cost class '") << name << "'";
  cost = parser.getBuilder().getI32IntegerAttr(static_cast<int32_t>(value));
  return success();
}

static void printCostClass(OpAsmPrinter &printer, Operation *,
                           IntegerAttr cost) {
  printer << stringifyCostClass(static_cast<CostClass>(cost.getInt()));
}

#define GET_OP_CLASSES
#include "cmm/Dialect/TaskGraph/TaskGraphOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static std::optional<int64_t> intOf(IntegerAttr attr) {
  if (!attr)
    return std::nullopt;
  return attr.getValue().getSExtValue();
}

static std::optional<double> floatOf(FloatAttr attr) {
  if (!attr)
    return std::nullopt;
  return attr.getValueAsDouble();
}

static TileType tileOf(Value v) { return cast<TileType>(v.getType()); }

static std::string shapeStr(TileType t) {
  return std::to_string(t.getRows()) + "x" + std::to_string(t.getCols());
}

static std::string shapeStr(Value v) { return shapeStr(tileOf(v)); }

/// Times may differ by rounding in the schedulers' sums.
static bool before(double a, double b) {
  return a < b - 1e-9 * std::max({1.0, std::fabs(a), std::fabs(b)});
}

CostClass cmm::tg::defaultCostClass(TaskKind kind) {
  switch (kind) {
  case TaskKind::Generate:
    return CostClass::Generate;
  case TaskKind::Load:
  case TaskKind::Gather:
  case TaskKind::Merge:
    return CostClass::Copy;
  case TaskKind::Gemm:
  case TaskKind::GemmAcc:
  case TaskKind::DistributedGemm:
    return CostClass::Gemm;
  case TaskKind::Elementwise:
    return CostClass::Elementwise;
  case TaskKind::Transpose:
    return CostClass::Transpose;
  case TaskKind::Reduce:
    return CostClass::Reduce;
  case TaskKind::Solve:
    return CostClass::Solve;
  case TaskKind::Potrf:
    return CostClass::Potrf;
  case TaskKind::Trsm:
    return CostClass::Trsm;
  case TaskKind::Syrk:
    return CostClass::Syrk;
  case TaskKind::GemmSub:
    return CostClass::Gemm;
  case TaskKind::Symmetry:
    return CostClass::Elementwise;
  }
  return CostClass::Elementwise;
}

std::optional<int64_t> cmm::tg::getTileNode(Value tile) {
  Operation *def = tile.getDefiningOp();
  if (auto task = dyn_cast_or_null<TaskOp>(def))
    return intOf(task.getNodeAttr());
  if (auto recv = dyn_cast_or_null<RecvOp>(def))
    return intOf(recv.getToAttr());
  return std::nullopt;
}

std::optional<double> cmm::tg::getTileReadyTime(Value tile) {
  Operation *def = tile.getDefiningOp();
  if (auto task = dyn_cast_or_null<TaskOp>(def))
    return floatOf(task.getFinishAttr());
  if (auto recv = dyn_cast_or_null<RecvOp>(def))
    return floatOf(recv.getFinishAttr());
  return std::nullopt;
}

/// Checks that optional integer attributes are >= `min`.
static LogicalResult
checkAtLeast(Operation *op, int64_t min,
             std::initializer_list<std::pair<StringRef, IntegerAttr>> attrs) {
  for (auto [name, attr] : attrs)
    if (auto v = intOf(attr); v && *v < min)
      return op->emitOpError()
             << name << " must be at least " << min << ", got " << *v;
  return success();
}

static LogicalResult checkInterval(Operation *op, FloatAttr start,
                                   FloatAttr finish) {
  for (FloatAttr t : {start, finish})
    if (t && (!std::isfinite(t.getValueAsDouble()) || t.getValueAsDouble() < 0))
      return op->emitOpError("times must be finite and non-negative, got ")
             << t.getValueAsDouble();
  if (start && finish && finish.getValueAsDouble() < start.getValueAsDouble())
    return op->emitOpError("finishes at ")
           << finish.getValueAsDouble() << " before it starts at "
           << start.getValueAsDouble();
  return success();
}

//===----------------------------------------------------------------------===//
// GraphOp
//===----------------------------------------------------------------------===//

void GraphOp::build(OpBuilder &builder, OperationState &state,
                    StringRef function, int64_t tileSize) {
  state.getOrAddProperties<Properties>().function =
      builder.getStringAttr(function);
  state.getOrAddProperties<Properties>().tile_size =
      builder.getI64IntegerAttr(tileSize);
  Region *body = state.addRegion();
  ensureTerminator(*body, builder, state.location);
}

LogicalResult GraphOp::verify() {
  if (failed(checkAtLeast(
          *this, 1,
          {{"tile_size", getTileSizeAttr()}, {"nodes", getNodesAttr()}})))
    return failure();
  if (auto makespan = floatOf(getMakespanAttr());
      makespan && (!std::isfinite(*makespan) || *makespan < 0))
    return emitOpError("makespan must be finite and non-negative, got ")
           << *makespan;
  return success();
}

namespace {
/// Describes a task for messages: `task "name"` or `task`.
std::string taskLabel(TaskOp task) {
  if (auto name = task.getNameAttr())
    return "task \"" + name.getValue().str() + "\"";
  return "task";
}
} // namespace

namespace {
/// Whether a task of `kind` can compute part of an op with `code`.
bool computesPartOf(TaskKind kind, cmmrt::plan::OpCode code) {
  using cmmrt::plan::OpCode;
  auto among = [&](std::initializer_list<OpCode> codes) {
    return llvm::is_contained(codes, code);
  };
  switch (kind) {
  case TaskKind::Generate: // A^0 is generated as the identity, the tiles
                           // below chol's diagonal as zeros
    return among({OpCode::Rand, OpCode::Randn, OpCode::Fill, OpCode::Eye,
                  OpCode::Range, OpCode::Constant, OpCode::Pow, OpCode::Chol});
  case TaskKind::Load:
    return code == OpCode::Load || code == OpCode::Import;
  case TaskKind::Gemm:
  case TaskKind::GemmAcc:
  case TaskKind::DistributedGemm:
    return among({OpCode::Matmul, OpCode::Pow});
  case TaskKind::Elementwise:
    return among({OpCode::Add, OpCode::Sub, OpCode::Mul, OpCode::Div,
                  OpCode::EPow, OpCode::Max, OpCode::Min, OpCode::Mod,
                  OpCode::Gt, OpCode::Lt, OpCode::Ge, OpCode::Le, OpCode::Eq,
                  OpCode::Scale, OpCode::Neg, OpCode::Map, OpCode::Fused,
                  OpCode::Tril, OpCode::Triu});
  case TaskKind::Transpose: // and a gang product's transposed operand
    return among({OpCode::Transpose, OpCode::Matmul});
  case TaskKind::Reduce:
    return among({OpCode::ReduceSum, OpCode::ReduceMax, OpCode::ReduceMin,
                  OpCode::ReduceMean, OpCode::Norm});
  case TaskKind::Gather:
    return among({OpCode::Print, OpCode::Save, OpCode::Export});
  case TaskKind::Solve: // one task over whole operands
    return among({OpCode::Inv, OpCode::Solve, OpCode::Slice, OpCode::Insert,
                  OpCode::Concat, OpCode::Diag, OpCode::Reshape, OpCode::Chol,
                  OpCode::Qr, OpCode::Svd, OpCode::SvdVals, OpCode::Eig,
                  OpCode::EigVals, OpCode::Det, OpCode::Pinv});
  case TaskKind::Merge:
    return false; // sub-tiles put back together belong to no op
  case TaskKind::Potrf:
  case TaskKind::Syrk:
  case TaskKind::Symmetry:
    return code == OpCode::Chol;
  case TaskKind::Trsm:
  case TaskKind::GemmSub:
    return among({OpCode::Chol, OpCode::Solve});
  }
  return false;
}
} // namespace

/// A gemm or gemm_acc task's tiles against its op's transpose flags: C =
/// op(A) * op(B) (+ the accumulator), and the time model's m, n, k those of
/// the product.
static LogicalResult verifyProduct(TaskOp task, bool transposeA,
                                   bool transposeB) {
  TileType a = tileOf(task.getInputs()[0]), b = tileOf(task.getInputs()[1]);
  TileType c = tileOf(task.getResults()[0]);
  auto read = [](TileType t, bool transposed) {
    return transposed ? std::make_pair(t.getCols(), t.getRows())
                      : std::make_pair(t.getRows(), t.getCols());
  };
  auto [m, k] = read(a, transposeA);
  auto [k2, n] = read(b, transposeB);
  auto str = [&](TileType t, bool transposed) {
    return shapeStr(t) + (transposed ? "'" : "");
  };
  std::string operands = str(a, transposeA) + " * " + str(b, transposeB);
  if (k != k2)
    return task.emitOpError("inner dimensions differ: ") << operands;
  std::string product =
      operands + " = " + std::to_string(m) + "x" + std::to_string(n);
  if (task.getTaskKind() == TaskKind::GemmAcc ||
      task.getTaskKind() == TaskKind::GemmSub) {
    TileType in = tileOf(task.getInputs()[2]);
    if (in.getRows() != m || in.getCols() != n)
      return task.emitOpError("accumulator shape ")
             << shapeStr(in) << " does not match " << product;
  }
  if (c.getRows() != m || c.getCols() != n)
    return task.emitOpError("result shape ")
           << shapeStr(c) << " does not match " << product;
  auto pm = intOf(task.getMAttr()), pn = intOf(task.getNAttr()),
       pk = intOf(task.getKAttr());
  // A product on compressed rows (cost class sparse) carries the depth of
  // the dense product that costs as much, not its own (CostClasses.def).
  bool sparse = task.getCostClass() == CostClass::Sparse;
  if (sparse && m != 1 && n != 1)
    return task.emitOpError("is costed as a product on compressed rows, but ")
           << product << " is not a matrix-vector product";
  // The first product on a tile the runtime compresses (class compress)
  // carries the stored tile's rows and columns and its nonzeros a row.
  if (task.getCostClass() == CostClass::Compress) {
    if (m != 1 && n != 1)
      return task.emitOpError("is costed as the compression of its matrix, "
                              "but ")
             << product << " is not a matrix-vector product";
    TileType matrix = n == 1 && m > 1 ? a : b;
    if ((pm && *pm != matrix.getRows()) || (pn && *pn != matrix.getCols()))
      return task.emitOpError("m, n must be its matrix tile's ")
             << matrix.getRows() << ", " << matrix.getCols() << " for "
             << product;
    return success();
  }
  // One tile against its own transpose runs on dsyrk (class syrk), whose k
  // counts half the depth (Tiling.cpp's matmul).
  bool syrk = task.getCostClass() == CostClass::Syrk;
  if (syrk && !cmmrt::runsOnSyrk(task.getInputs()[0] == task.getInputs()[1],
                                 transposeA, transposeB, m, n))
    return task.emitOpError("is costed as syrk, but ")
           << product << " is not a tile against its own transpose";
  int64_t depth = syrk ? cmmrt::syrkCostDepth(k) : k;
  if ((pm && *pm != m) || (pn && *pn != n) || (pk && *pk != depth && !sparse))
    return task.emitOpError("m, n, k must be ")
           << m << ", " << n << ", " << depth << " for " << product;
  return success();
}

LogicalResult GraphOp::verifyRegions() {
  // Every task names a declared op its kind can compute part of.
  llvm::DenseMap<StringAttr, OpDeclOp> declared;
  for (auto decl : getBodyBlock().getOps<OpDeclOp>())
    declared[decl.getSymNameAttr()] = decl;
  for (auto task : getBodyBlock().getOps<TaskOp>()) {
    FlatSymbolRefAttr name = task.getOpAttr();
    bool product = task.getTaskKind() == TaskKind::Gemm ||
                   task.getTaskKind() == TaskKind::GemmAcc;
    if (!name) {
      if (product && failed(verifyProduct(task, false, false)))
        return failure();
      continue;
    }
    auto it = declared.find(name.getAttr());
    if (it == declared.end())
      return task.emitOpError("computes part of ")
             << name << ", which the graph does not declare (cmmtg.op)";
    OpDeclOp decl = it->second;
    if (!computesPartOf(task.getTaskKind(), decl.getOpCode())) {
      InFlightDiagnostic diag = task.emitOpError("is a ")
                                << stringifyTaskKind(task.getTaskKind())
                                << " task, which cannot compute "
                                << "part of " << name << " ("
                                << cmmrt::plan::opCodeName(decl.getOpCode())
                                << ")";
      diag.attachNote(decl.getLoc()) << "declared here";
      return diag;
    }
    if (product && failed(verifyProduct(task, decl.getTransposeLhs(),
                                        decl.getTransposeRhs())))
      return failure();
    // chol's trailing update reads the factor's tiles transposed (C -
    // R_ki' R_kj), as a solve R' \ B does (B_i - R_ji' X_j); R \ B reads
    // them as they are (B_i - R_ij X_j).
    if (task.getTaskKind() == TaskKind::GemmSub &&
        failed(verifyProduct(task,
                             decl.getOpCode() == cmmrt::plan::OpCode::Chol ||
                                 cmmrt::readsTransposed(cmmrt::SolveMethod(
                                     decl.getMethod().value_or(0))),
                             false)))
      return failure();
    if (decl.getOpCode() == cmmrt::plan::OpCode::Fused &&
        task.getInputs().size() != decl.getInputs().value_or(0))
      return task.emitOpError("reads ")
             << task.getInputs().size() << " tile(s), but its fused kernel "
             << name << " takes " << decl.getInputs().value_or(0);
  }

  std::optional<int64_t> nodeCount = intOf(getNodesAttr());
  bool scheduled = isScheduled();
  // Evicted values and where they were evicted.
  llvm::DenseMap<Value, Operation *> evicted;

  auto checkNode = [&](Operation *op, StringRef what,
                       std::optional<int64_t> node) -> LogicalResult {
    if (node && nodeCount && *node >= *nodeCount)
      return op->emitOpError()
             << what << " " << *node << " does not exist (the graph has "
             << *nodeCount << " node(s))";
    return success();
  };

  auto checkCache = [&](Operation *cacheOp, Value tile, int64_t node,
                        StringRef verb) -> LogicalResult {
    if (failed(checkNode(cacheOp, "node", node)))
      return failure();
    std::optional<int64_t> at = getTileNode(tile);
    if (at && *at != node)
      return cacheOp->emitOpError() << verb << " on node " << node
                                    << " a tile located on node " << *at;
    return success();
  };

  for (Operation &op : getBodyBlock()) {
    for (OpOperand &use : op.getOpOperands())
      if (auto it = evicted.find(use.get()); it != evicted.end()) {
        InFlightDiagnostic diag = op.emitOpError()
                                  << "operand #" << use.getOperandNumber()
                                  << " is used after it was evicted from node "
                                  << cast<EvictOp>(it->second).getNode();
        diag.attachNote(it->second->getLoc()) << "evicted here";
        return diag;
      }

    if (auto task = dyn_cast<TaskOp>(op)) {
      std::optional<int64_t> node = intOf(task.getNodeAttr());
      if (scheduled && (!node || !task.getWorkerAttr() ||
                        !task.getStartAttr() || !task.getFinishAttr()))
        return task.emitOpError()
               << "in a scheduled graph needs node, worker, start and finish";
      if (failed(checkNode(task, "node", node)) ||
          failed(checkNode(task, "pinned node", intOf(task.getPinnedAttr()))))
        return failure();
      if (auto gang = task.getNodesAttr())
        for (int64_t n : gang.asArrayRef())
          if (failed(checkNode(task, "gang node", n)))
            return failure();
      if (!node)
        continue;
      std::optional<double> start = floatOf(task.getStartAttr());
      // A distributed_gemm reads its operands on any node of its gang.
      SmallVector<int64_t> readable{*node};
      if (auto gang = task.getNodesAttr())
        readable.append(gang.asArrayRef().begin(), gang.asArrayRef().end());
      for (OpOperand &use : task->getOpOperands()) {
        std::optional<int64_t> at = getTileNode(use.get());
        if (at && !llvm::is_contained(readable, *at))
          return task.emitOpError()
                 << "(" << taskLabel(task) << ") runs on node " << *node
                 << " but operand #" << use.getOperandNumber()
                 << " is located on node " << *at;
        std::optional<double> ready = getTileReadyTime(use.get());
        if (start && ready && before(*start, *ready))
          return task.emitOpError()
                 << "(" << taskLabel(task) << ") starts at " << *start
                 << " before operand #" << use.getOperandNumber()
                 << " is ready on node " << at.value_or(*node) << " at "
                 << *ready;
      }
      continue;
    }

    if (auto recv = dyn_cast<RecvOp>(op)) {
      if (scheduled && (!recv.getStartAttr() || !recv.getFinishAttr()))
        return recv.emitOpError("in a scheduled graph needs start and finish");
      if (failed(checkNode(recv, "source node", recv.getFrom())) ||
          failed(checkNode(recv, "destination node", recv.getTo())))
        return failure();
      std::optional<int64_t> at = getTileNode(recv.getInput());
      if (at && *at != int64_t(recv.getFrom()))
        return recv.emitOpError() << "sends from node " << recv.getFrom()
                                  << " a tile located on node " << *at;
      std::optional<double> start = floatOf(recv.getStartAttr());
      std::optional<double> ready = getTileReadyTime(recv.getInput());
      if (start && ready && before(*start, *ready))
        return recv.emitOpError()
               << "starts at " << *start << " before its tile is ready on node "
               << recv.getFrom() << " at " << *ready;
      continue;
    }

    if (auto put = dyn_cast<CachePutOp>(op)) {
      if (failed(checkCache(put, put.getTile(), put.getNode(), "caches")))
        return failure();
      continue;
    }
    if (auto evict = dyn_cast<EvictOp>(op)) {
      if (failed(checkCache(evict, evict.getTile(), evict.getNode(), "evicts")))
        return failure();
      evicted[evict.getTile()] = evict;
      continue;
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// OpDeclOp
//===----------------------------------------------------------------------===//

LogicalResult OpDeclOp::verify() {
  using cmmrt::plan::OpCode;
  if (getCode() > uint32_t(OpCode::Export))
    return emitOpError("has no op code ") << getCode();
  if (bool(getKernelAttr()) != (getOpCode() == OpCode::Fused) ||
      bool(getInputsAttr()) != (getOpCode() == OpCode::Fused))
    return emitOpError("has 'inputs' and 'kernel' exactly when it is fused");
  if (failed(checkAtLeast(*this, 0,
                          {{"rows", getRowsAttr()},
                           {"cols", getColsAttr()},
                           {"in_rows", getInRowsAttr()},
                           {"in_cols", getInColsAttr()}})))
    return failure();
  OpCode code = getOpCode();
  if ((getTransposeLhs() || getTransposeRhs()) && code != OpCode::Matmul)
    return emitOpError("(") << cmmrt::plan::opCodeName(code)
                            << ") cannot read operands transposed: only a "
                               "matmul can";
  auto need = [&](bool has, StringRef what) -> LogicalResult {
    if (has)
      return success();
    return emitOpError("(")
           << cmmrt::plan::opCodeName(code) << ") needs '" << what << "'";
  };
  switch (code) {
  case OpCode::Rand:
  case OpCode::Randn:
    return failure(failed(need(bool(getSeedAttr()), "seed")) ||
                   failed(need(bool(getIdAttr()), "id")));
  case OpCode::Fill:
  case OpCode::Scale:
  case OpCode::PrintScalar:
    if (failed(need(bool(getValueAttr()), "value")))
      return failure();
    return code == OpCode::PrintScalar ? need(bool(getLabelAttr()), "label")
                                       : success();
  case OpCode::Range:
    return failure(failed(need(bool(getFirstAttr()), "first")) ||
                   failed(need(bool(getLastAttr()), "last")));
  case OpCode::Constant:
    if (failed(need(bool(getDataAttr()), "data")))
      return failure();
    if (getData()->getNumElements() != int64_t(getRows() * getCols()))
      return emitOpError("data has ")
             << getData()->getNumElements() << " elements, not " << getRows()
             << "x" << getCols();
    return success();
  case OpCode::Load:
  case OpCode::Save:
    return need(bool(getPathAttr()), "path");
  case OpCode::Print:
    return need(bool(getLabelAttr()), "label");
  case OpCode::Import:
  case OpCode::Export:
    return need(bool(getIdAttr()), "id");
  case OpCode::Slice:
  case OpCode::Insert:
    return need(getRowAttr() && getColAttr(), "row' and 'col");
  case OpCode::Concat:
    if (failed(need(bool(getDimAttr()), "dim")))
      return failure();
    if (*getDim() != 1 && *getDim() != 2)
      return emitOpError("concat's dim must be 1 or 2, got ") << *getDim();
    return success();
  case OpCode::Map:
    return need(bool(getFnAttr()), "fn");
  case OpCode::Fused: {
    cmmrt::fused::Kernel kernel;
    std::string error;
    if (*getInputs() < 1 ||
        !cmmrt::fused::parse(getKernel()->str(), int32_t(*getInputs()), kernel,
                             error))
      return emitOpError("has a kernel that does not read: ")
             << (*getInputs() < 1 ? "a fused op takes at least one input"
                                  : error);
    return success();
  }
  case OpCode::ReduceSum:
  case OpCode::ReduceMax:
  case OpCode::ReduceMin:
  case OpCode::ReduceMean:
    if (failed(
            need(getInRowsAttr() && getInColsAttr(), "in_rows' and 'in_cols")))
      return failure();
    if (getDim() && *getDim() > 2)
      return emitOpError("dim must be 0 (all), 1 or 2, got ") << *getDim();
    return success();
  default:
    return success();
  }
}

//===----------------------------------------------------------------------===//
// TaskOp
//===----------------------------------------------------------------------===//

CostClass TaskOp::getCostClass() {
  if (auto cost = getCost())
    return static_cast<CostClass>(*cost);
  return defaultCostClass(getTaskKind());
}

LogicalResult TaskOp::verify() {
  if (failed(checkAtLeast(
          *this, 1,
          {{"m", getMAttr()}, {"n", getNAttr()}, {"k", getKAttr()}})) ||
      failed(checkAtLeast(*this, 0,
                          {{"node", getNodeAttr()},
                           {"worker", getWorkerAttr()},
                           {"pinned", getPinnedAttr()}})) ||
      failed(checkInterval(*this, getStartAttr(), getFinishAttr())))
    return failure();

  std::optional<int64_t> node = intOf(getNodeAttr());
  std::optional<int64_t> pinned = intOf(getPinnedAttr());
  if (node && pinned && *node != *pinned)
    return emitOpError() << "(" << taskLabel(*this) << ") is pinned to node "
                         << *pinned << " but runs on node " << *node;

  if (getKind() > uint32_t(TaskKind::Symmetry))
    return emitOpError("has no task kind ") << getKind();
  if (auto cost = getCost(); cost && *cost >= cmmrt::plan::kNumCostClasses)
    return emitOpError("has no cost class ") << *cost;
  TaskKind kind = getTaskKind();
  StringRef kindName = stringifyTaskKind(kind);
  size_t numInputs = getInputs().size(), numResults = getResults().size();
  auto arity = [&](size_t minIn, size_t maxIn, size_t minOut,
                   size_t maxOut) -> LogicalResult {
    if (numInputs < minIn || numInputs > maxIn) {
      InFlightDiagnostic d = emitOpError() << kindName << " takes ";
      if (minIn == maxIn)
        d << minIn;
      else if (maxIn == SIZE_MAX)
        d << "at least " << minIn;
      else
        d << minIn << " to " << maxIn;
      return d << " tile(s), got " << numInputs;
    }
    if (numResults < minOut || numResults > maxOut) {
      InFlightDiagnostic d = emitOpError() << kindName << " produces ";
      if (minOut == maxOut)
        d << minOut;
      else
        d << "at least " << minOut;
      return d << " tile(s), got " << numResults;
    }
    return success();
  };

  if (getNodesAttr() && kind != TaskKind::DistributedGemm)
    return emitOpError("only a distributed_gemm has a gang of nodes");
  if (auto origins = getOriginsAttr();
      origins && origins.size() != 2 * int64_t(getNumResults()))
    return emitOpError("needs one (row, column) origin per result: ")
           << origins.size() << " value(s) for " << getNumResults()
           << " result(s)";

  switch (kind) {
  case TaskKind::Generate:
  case TaskKind::Load:
    return arity(0, 0, 1, 1);
  case TaskKind::Gemm:
  case TaskKind::GemmAcc: {
    // The shapes depend on the op's transpose flags: GraphOp::verifyRegions
    // checks them (verifyProduct) once the declarations are known.
    bool acc = kind == TaskKind::GemmAcc;
    return arity(acc ? 3 : 2, acc ? 3 : 2, 1, 1);
  }
  case TaskKind::Elementwise: {
    if (failed(arity(1, SIZE_MAX, 1, 1)))
      return failure();
    TileType r = tileOf(getResults()[0]);
    int64_t rows = 1, cols = 1;
    for (Value in : getInputs()) {
      TileType t = tileOf(in);
      rows = std::max(rows, t.getRows());
      cols = std::max(cols, t.getCols());
    }
    for (auto [i, in] : llvm::enumerate(getInputs())) {
      TileType t = tileOf(in);
      if ((t.getRows() != rows && t.getRows() != 1) ||
          (t.getCols() != cols && t.getCols() != 1))
        return emitOpError("operand #")
               << i << " shape " << shapeStr(t) << " does not broadcast to "
               << rows << "x" << cols;
    }
    if (r.getRows() != rows || r.getCols() != cols)
      return emitOpError("result shape ")
             << shapeStr(r) << " does not match the broadcast of the operands ("
             << rows << "x" << cols << ")";
    return success();
  }
  case TaskKind::Transpose: {
    if (failed(arity(1, 1, 1, 1)))
      return failure();
    TileType in = tileOf(getInputs()[0]), r = tileOf(getResults()[0]);
    if (r.getRows() != in.getCols() || r.getCols() != in.getRows())
      return emitOpError("result shape ")
             << shapeStr(r) << " is not the transpose of " << shapeStr(in);
    return success();
  }
  case TaskKind::Reduce: {
    if (failed(arity(1, 2, 1, 1)))
      return failure();
    // A combine of two partial results keeps their shape.
    if (numInputs == 2)
      for (auto [i, in] : llvm::enumerate(getInputs()))
        if (in.getType() != getResults()[0].getType())
          return emitOpError("combine operand #")
                 << i << " shape " << shapeStr(in)
                 << " differs from the result shape "
                 << shapeStr(getResults()[0]);
    return success();
  }
  case TaskKind::Gather:
    return arity(1, SIZE_MAX, 0, 0);
  case TaskKind::Merge:
    return arity(1, SIZE_MAX, 1, 1);
  case TaskKind::Solve:
    return arity(1, SIZE_MAX, 1, SIZE_MAX);
  case TaskKind::Potrf: {
    // The diagonal tile (and, for the first, the symmetry shares).
    if (failed(arity(1, SIZE_MAX, 1, 1)))
      return failure();
    TileType a = tileOf(getInputs()[0]);
    if (a.getRows() != a.getCols() || getResults()[0].getType() != a)
      return emitOpError("potrf factors a square tile into one of its "
                         "shape: ")
             << shapeStr(a) << " into " << shapeStr(getResults()[0]);
    return success();
  }
  case TaskKind::Trsm: {
    if (failed(arity(2, 2, 1, 1)))
      return failure();
    TileType t = tileOf(getInputs()[0]), b = tileOf(getInputs()[1]);
    if (t.getRows() != t.getCols() || t.getCols() != b.getRows() ||
        getResults()[0].getType() != b)
      return emitOpError("trsm solves a square triangle against a tile of "
                         "as many rows, into its shape: ")
             << shapeStr(t) << " \\ " << shapeStr(b) << " = "
             << shapeStr(getResults()[0]);
    return success();
  }
  case TaskKind::Syrk: {
    if (failed(arity(2, 2, 1, 1)))
      return failure();
    TileType a = tileOf(getInputs()[0]), c = tileOf(getInputs()[1]);
    if (c.getRows() != c.getCols() || a.getCols() != c.getCols() ||
        getResults()[0].getType() != c)
      return emitOpError("syrk updates a square tile C - A' A: ")
             << shapeStr(c) << " - " << shapeStr(a) << "' * " << shapeStr(a);
    return success();
  }
  case TaskKind::GemmSub:
    // The shapes depend on the op (chol reads A transposed):
    // GraphOp::verifyRegions checks them.
    return arity(3, 3, 1, 1);
  case TaskKind::Symmetry: {
    if (failed(arity(1, 2, 1, 1)))
      return failure();
    TileType r = tileOf(getResults()[0]);
    if (r.getRows() != 1 || r.getCols() != 2)
      return emitOpError("symmetry produces a 1x2 share, not ") << shapeStr(r);
    return success();
  }
  case TaskKind::DistributedGemm: {
    if (failed(arity(2, SIZE_MAX, 1, SIZE_MAX)))
      return failure();
    auto gang = getNodesAttr();
    if (!gang || gang.empty())
      return emitOpError("distributed_gemm needs its gang of nodes");
    SmallVector<int64_t> sorted(gang.asArrayRef());
    llvm::sort(sorted);
    if (sorted.front() < 0)
      return emitOpError("gang node ") << sorted.front() << " is negative";
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
      return emitOpError("gang lists a node twice");
    if (node && !llvm::is_contained(sorted, *node))
      return emitOpError("runs on node ")
             << *node << " outside its gang of nodes";
    if (node && *node != gang.asArrayRef().front())
      return emitOpError("runs on node ")
             << *node << " but its results appear on the gang's first node "
             << gang.asArrayRef().front();
    // The operands are A's tiles then B's: m x k then k x n by area (m, n
    // and k default to 1, as for every task).
    int64_t area = 0;
    for (Value in : getInputs()) {
      auto t = cast<TileType>(in.getType());
      area += t.getRows() * t.getCols();
    }
    int64_t m = getM().value_or(1), n = getN().value_or(1),
            k = getK().value_or(1);
    if (area != m * k + k * n)
      return emitOpError("operand tiles cover ")
             << area << " elements, not the " << m * k + k * n << " of A (" << m
             << "x" << k << ") and B (" << k << "x" << n << ")";
    return success();
  }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// RecvOp, CachePutOp, EvictOp
//===----------------------------------------------------------------------===//

LogicalResult RecvOp::verify() {
  if (failed(checkAtLeast(*this, 0,
                          {{"from", getFromAttr()},
                           {"to", getToAttr()},
                           {"send_comm", getSendCommAttr()},
                           {"recv_comm", getRecvCommAttr()}})) ||
      failed(checkInterval(*this, getStartAttr(), getFinishAttr())))
    return failure();
  if (getFrom() == getTo())
    return emitOpError("sends a tile from node ") << getFrom() << " to itself";
  return success();
}

LogicalResult CachePutOp::verify() {
  if (failed(checkAtLeast(*this, 0, {{"node", getNodeAttr()}})) ||
      failed(checkInterval(*this, getTimeAttr(), {})))
    return failure();
  return success();
}

LogicalResult EvictOp::verify() {
  if (failed(checkAtLeast(*this, 0, {{"node", getNodeAttr()}})) ||
      failed(checkInterval(*this, getTimeAttr(), {})))
    return failure();
  return success();
}
