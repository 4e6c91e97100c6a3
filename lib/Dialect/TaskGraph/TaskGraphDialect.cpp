//===- TaskGraphDialect.cpp - The cmmtg dialect -----------------*- C++ -*-===//
//
// Dialect registration and the tile type's syntax `!cmmtg.tile<RxC>`.
//
//===----------------------------------------------------------------------===//

#include "cmm/Dialect/TaskGraph/TaskGraphDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace cmm::tg;

#include "cmm/Dialect/TaskGraph/TaskGraphDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "cmm/Dialect/TaskGraph/TaskGraphTypes.cpp.inc"

void TaskGraphDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "cmm/Dialect/TaskGraph/TaskGraphTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "cmm/Dialect/TaskGraph/TaskGraphOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// TileType
//===----------------------------------------------------------------------===//

Type TileType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t, 2> dims;
  if (parser.parseLess() ||
      parser.parseDimensionList(dims, /*allowDynamic=*/false,
                                /*withTrailingX=*/false) ||
      parser.parseGreater())
    return {};
  if (dims.size() != 2) {
    parser.emitError(loc, "expected a tile shape RxC, got ")
        << dims.size() << " dimension(s)";
    return {};
  }
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    dims[0], dims[1]);
}

void TileType::print(AsmPrinter &printer) const {
  printer << "<" << getRows() << "x" << getCols() << ">";
}

LogicalResult TileType::verify(function_ref<InFlightDiagnostic()> emitError,
                               int64_t rows, int64_t cols) {
  if (rows < 1 || cols < 1)
    return emitError() << "tile dimensions must be positive, got " << rows
                       << "x" << cols;
  return success();
}
