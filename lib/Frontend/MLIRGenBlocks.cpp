//===- MLIRGenBlocks.cpp - Indexing and concatenation -----------*- C++ -*-===//
//
// Subscripts with `end`, slices (cmm.slice), block assignment (cmm.insert)
// and block literals, hcat and vcat (cmm.concat); docs/language.md §14.3-4.
//
//===----------------------------------------------------------------------===//

#include "MLIRGenImpl.h"

#include "cmm/Frontend/Diagnostic.h"
#include "cmmrt/Format.h"

#include "llvm/ADT/StringSwitch.h"

#include <cmath>

using namespace cmm;
using namespace cmm::mlirgen;

bool MLIRGenImpl::genIndexAssign(const IndexAssignStmt &stmt) {
  llvm::StringRef name = stmt.getName();
  auto it = env.find(name);
  if (it == env.end()) {
    error(stmt.getTarget().getBase().getLoc(),
          "unknown name '" + name +
              "' (a block assignment changes part of an existing matrix)");
    return false;
  }
  SMLoc at = stmt.getTarget().getLoc();
  TraceValue old = it->second;
  int64_t r = old.isScalar() ? 1 : rows(old.matrix);
  int64_t c = old.isScalar() ? 1 : cols(old.matrix);
  std::optional<Block> block = toBlock(stmt.getTarget(), r, c);
  if (!block)
    return false;
  MaybeValue value = eval(stmt.getValue());
  if (!value)
    return false;
  SMLoc valueLoc = stmt.getValue().getLoc();
  // A compile-time scalar into a compile-time scalar stays one.
  if (old.isScalar() && value->isScalar()) {
    env[name] = *value;
    return true;
  }
  Value piece;
  auto blockType = matrixType(block->rows, block->cols);
  if (value->isScalar()) {
    piece = block->rows * block->cols == 1
                ? asMatrix(*value, valueLoc)
                : FillOp::create(builder, loc(valueLoc), blockType,
                                 builder.getF64FloatAttr(value->scalar))
                      .getResult();
  } else if (rows(value->matrix) == block->rows &&
             cols(value->matrix) == block->cols) {
    piece = value->matrix;
  } else if (rows(value->matrix) == 1 && cols(value->matrix) == 1) {
    // A 1x1 matrix fills the block: 1 .* v keeps every value (-0, NaN).
    Value ones = FillOp::create(builder, loc(valueLoc), blockType,
                                builder.getF64FloatAttr(1.0));
    piece =
        MulOp::create(builder, loc(valueLoc), blockType, ones, value->matrix);
  } else {
    error(at, "the block " + stmt.getTarget().getText() + " is " +
                  llvm::Twine(block->rows) + "x" + llvm::Twine(block->cols) +
                  ", the assigned value is " + shapeOf(value->matrix) +
                  " (it must have the block's shape, or be a scalar or a "
                  "1x1 matrix that fills it)");
    return false;
  }
  if (block->rows == r && block->cols == c) {
    env[name] = TraceValue::ofMatrix(piece);
    return true;
  }
  Value dest = asMatrix(old, stmt.getTarget().getBase().getLoc());
  env[name] = TraceValue::ofMatrix(
      InsertOp::create(builder, loc(at), dest.getType(), dest, piece,
                       builder.getI64IntegerAttr(block->row0),
                       builder.getI64IntegerAttr(block->col0)));
  return true;
}

//===----------------------------------------------------------------------===//
// Indexing and concatenation
//===----------------------------------------------------------------------===//

std::optional<std::pair<int64_t, int64_t>>
MLIRGenImpl::toSubscript(const Expr &sub, int64_t size, llvm::StringRef what,
                         const IndexExpr &index, const std::string &shape) {
  if (llvm::isa<ColonExpr>(sub))
    return std::make_pair(int64_t(1), size);
  endSizes.push_back(size);
  std::optional<int64_t> lo, hi;
  if (auto *range = llvm::dyn_cast<RangeExpr>(&sub)) {
    lo = toInteger(range->getLo(), "a subscript");
    if (lo)
      hi = toInteger(range->getHi(), "a subscript");
  } else {
    // Traced once: a subscript may call a function that prints.
    MaybeValue v = eval(sub);
    if (v && !v->isScalar())
      error(sub.getLoc(), "a subscript must be a compile-time integer, a "
                          "range a:b or ':', got a " +
                              shapeOf(v->matrix) + " matrix");
    else if (v)
      lo = hi = asInteger(*v, sub.getLoc(), "a subscript");
  }
  endSizes.pop_back();
  if (!lo || !hi)
    return std::nullopt;
  if (*hi < *lo)
    return error(sub.getLoc(), "empty range " + llvm::Twine(*lo) + ":" +
                                   llvm::Twine(*hi) + " in an index (a " +
                                   "matrix with no " + what +
                                   " is not "
                                   "supported)");
  for (int64_t i : {*lo, *hi})
    if (i < 1 || i > size)
      return error(sub.getLoc(), "index " + llvm::Twine(i) +
                                     " is out of range for the " + shape + " " +
                                     index.getBase().getText() + " (" + what +
                                     " 1:" + llvm::Twine(size) + ")");
  return std::make_pair(*lo, *hi);
}

std::optional<MLIRGenImpl::Block> MLIRGenImpl::toBlock(const IndexExpr &index,
                                                       int64_t r, int64_t c) {
  const auto &subs = index.getSubscripts();
  std::string shape = std::to_string(r) + "x" + std::to_string(c);
  if (subs.size() == 2) {
    auto rowRange = toSubscript(*subs[0], r, "rows", index, shape);
    if (!rowRange)
      return std::nullopt;
    auto colRange = toSubscript(*subs[1], c, "columns", index, shape);
    if (!colRange)
      return std::nullopt;
    return Block{rowRange->first - 1, colRange->first - 1,
                 rowRange->second - rowRange->first + 1,
                 colRange->second - colRange->first + 1};
  }
  // One subscript: the elements of a vector, or one element of a matrix
  // in column-major order (as Julia's linear indexing).
  const Expr &sub = *subs[0];
  if (r == 1 || c == 1) {
    auto range = toSubscript(sub, r * c, "elements", index, shape);
    if (!range)
      return std::nullopt;
    int64_t first = range->first - 1, count = range->second - range->first + 1;
    return r == 1 ? Block{0, first, 1, count} : Block{first, 0, count, 1};
  }
  if (llvm::isa<RangeExpr>(sub) || llvm::isa<ColonExpr>(sub))
    return error(sub.getLoc(), "a range of elements of the " + shape +
                                   " matrix " + index.getBase().getText() +
                                   " needs two subscripts: A[rows, cols]");
  auto element = toSubscript(sub, r * c, "elements", index, shape);
  if (!element)
    return std::nullopt;
  int64_t k = element->first - 1;
  return Block{k % r, k / r, 1, 1};
}

Value MLIRGenImpl::slice(Value v, const Block &b, SMLoc l) {
  if (b.row0 == 0 && b.col0 == 0 && b.rows == rows(v) && b.cols == cols(v))
    return v;
  return SliceOp::create(builder, loc(l), matrixType(b.rows, b.cols), v,
                         builder.getI64IntegerAttr(b.row0),
                         builder.getI64IntegerAttr(b.col0));
}

MaybeValue MLIRGenImpl::evalIndex(const IndexExpr &expr) {
  MaybeValue base = eval(expr.getBase());
  if (!base)
    return std::nullopt;
  int64_t r = base->isScalar() ? 1 : rows(base->matrix);
  int64_t c = base->isScalar() ? 1 : cols(base->matrix);
  std::optional<Block> block = toBlock(expr, r, c);
  if (!block)
    return std::nullopt;
  if (base->isScalar())
    return base; // x[1] and x[1, 1] of a compile-time scalar
  return TraceValue::ofMatrix(slice(base->matrix, *block, expr.getLoc()));
}

MaybeValue MLIRGenImpl::concat(llvm::ArrayRef<Value> parts, int64_t dim,
                               SMLoc l, llvm::ArrayRef<SMLoc> partLocs) {
  if (parts.size() == 1)
    return TraceValue::ofMatrix(parts.front());
  // dim 2 (hcat): equal row counts, columns add up; dim 1 (vcat): the
  // other way round.
  auto across = [&](Value v) { return dim == 2 ? rows(v) : cols(v); };
  auto along = [&](Value v) { return dim == 2 ? cols(v) : rows(v); };
  int64_t total = 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (across(parts[i]) != across(parts[0]))
      return error(partLocs[i],
                   llvm::Twine(dim == 2 ? "side by side" : "stacked") +
                       ", the blocks need equal " +
                       (dim == 2 ? "row" : "column") + " counts: this one is " +
                       shapeOf(parts[i]) + ", the first " + shapeOf(parts[0]));
    total += along(parts[i]);
  }
  int64_t r = dim == 2 ? rows(parts[0]) : total;
  int64_t c = dim == 2 ? total : cols(parts[0]);
  if (!checkSize(l, r, c))
    return std::nullopt;
  return TraceValue::ofMatrix(ConcatOp::create(builder, loc(l),
                                               matrixType(r, c), parts,
                                               builder.getI64IntegerAttr(dim)));
}

MaybeValue
MLIRGenImpl::evalBlockLiteral(const MatrixExpr &expr,
                              std::vector<std::vector<TraceValue>> elements) {
  const auto &rowsAst = expr.getRows();
  std::vector<Value> blockRows;
  std::vector<SMLoc> blockRowLocs;
  for (size_t r = 0; r < elements.size(); ++r) {
    std::vector<Value> parts;
    std::vector<SMLoc> locs;
    for (size_t k = 0; k < elements[r].size(); ++k) {
      SMLoc at = rowsAst[r][k]->getLoc();
      parts.push_back(asMatrix(elements[r][k], at));
      locs.push_back(rowsAst[r][k]->getRange().Start);
    }
    MaybeValue row = concat(parts, 2, locs.front(), locs);
    if (!row)
      return std::nullopt;
    blockRows.push_back(row->matrix);
    blockRowLocs.push_back(locs.front());
  }
  return concat(blockRows, 1, expr.getLoc(), blockRowLocs);
}
