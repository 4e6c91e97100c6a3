//===- TaskGraphDialect.cpp - The cmmtg dialect -----------------*- C++ -*-===//
//
// Dialect registration, the tile type's syntax `!cmmtg.tile<RxC>` and the
// machine model attributes' verifiers.
//
//===----------------------------------------------------------------------===//

#include "cmm/Dialect/TaskGraph/TaskGraphDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace cmm::tg;

#include "cmm/Dialect/TaskGraph/TaskGraphDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "cmm/Dialect/TaskGraph/TaskGraphTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "cmm/Dialect/TaskGraph/TaskGraphAttrs.cpp.inc"

void TaskGraphDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "cmm/Dialect/TaskGraph/TaskGraphTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "cmm/Dialect/TaskGraph/TaskGraphAttrs.cpp.inc"
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

//===----------------------------------------------------------------------===//
// The machine model
//===----------------------------------------------------------------------===//

/// The checks of one node of a machine (the JSON reader's limits).
static LogicalResult verifyNode(function_ref<InFlightDiagnostic()> emitError,
                                NodeAttr spec) {
  if (spec.getCores() < 1 || spec.getWorkers() < 1 || spec.getThreads() < 1 ||
      spec.getCommunicators() < 1)
    return emitError() << "node '" << spec.getName()
                       << "' needs at least one core, worker, thread and "
                          "communicator";
  if (!(spec.getMemory().getValueAsDouble() > 0))
    return emitError() << "node '" << spec.getName()
                       << "' needs a positive memory";
  if (FloatAttr network = spec.getNetwork();
      network && !(network.getValueAsDouble() > 0))
    return emitError() << "node '" << spec.getName()
                       << "' needs a positive network bandwidth";
  for (auto [key, value] :
       {std::pair{"first_touch", spec.getFirstTouch()},
        std::pair{"task_overhead", spec.getTaskOverhead()},
        std::pair{"receive_cpu", spec.getReceiveCpu()},
        std::pair{"receive_cpu_per_byte", spec.getReceiveCpuPerByte()},
        std::pair{"send_cpu", spec.getSendCpu()},
        std::pair{"send_cpu_per_byte", spec.getSendCpuPerByte()},
        std::pair{"cache_bytes", spec.getCacheBytes()}})
    if (value && !(value.getValueAsDouble() >= 0))
      return emitError() << "node '" << spec.getName() << "' needs a " << key
                         << " of at least 0";
  if (IntegerAttr huge = spec.getHugePageBytes(); huge && huge.getInt() < 0)
    return emitError() << "node '" << spec.getName()
                       << "' needs a huge_page_bytes of at least 0";
  if (FloatAttr hot = spec.getHotFactor();
      hot && !(hot.getValueAsDouble() > 0 && hot.getValueAsDouble() <= 1))
    return emitError() << "node '" << spec.getName()
                       << "' needs a hot_factor in (0, 1]";
  if (DenseF64ArrayAttr splits = spec.getConfigurations()) {
    ArrayRef<double> v = splits.asArrayRef();
    if (v.size() % 3)
      return emitError() << "node '" << spec.getName()
                         << "': configurations are workers, threads and "
                            "gemm factor, three numbers a split";
    // The JSON reader's limits: counts in [1, 2^20], each split once.
    auto count = [](double x) {
      return x >= 1 && x <= double(1 << 20) && x == std::floor(x);
    };
    for (size_t i = 0; i < v.size(); i += 3) {
      if (!(count(v[i]) && count(v[i + 1]) && v[i + 2] > 0))
        return emitError() << "node '" << spec.getName() << "': split "
                           << i / 3
                           << " needs whole numbers of workers and threads "
                              "in [1, 2^20] and a positive gemm factor";
      for (size_t j = 0; j < i; j += 3)
        if (v[j] == v[i] && v[j + 1] == v[i + 1])
          return emitError() << "node '" << spec.getName() << "': split "
                             << i / 3 << " repeats split " << j / 3;
    }
  }
  return success();
}

LogicalResult MachineAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  StringRef, ArrayAttr nodes, LinkAttr,
                                  ArrayAttr routes, FloatAttr memoryLimit,
                                  NodeAttr masterAlone) {
  if (nodes.empty())
    return emitError() << "a machine needs at least one node";
  for (Attribute node : nodes) {
    auto spec = dyn_cast<NodeAttr>(node);
    if (!spec)
      return emitError() << "nodes must be #cmmtg.node attributes, got "
                         << node;
    if (failed(verifyNode(emitError, spec)))
      return failure();
  }
  if (masterAlone && failed(verifyNode(emitError, masterAlone)))
    return failure();
  for (Attribute route : routes) {
    auto r = dyn_cast<RouteAttr>(route);
    if (!r)
      return emitError() << "routes must be #cmmtg.route attributes, got "
                         << route;
    if (r.getFrom() < 0 || r.getTo() < 0 ||
        r.getFrom() >= int64_t(nodes.size()) ||
        r.getTo() >= int64_t(nodes.size()))
      return emitError() << "a route from node " << r.getFrom() << " to node "
                         << r.getTo() << " of a machine with " << nodes.size()
                         << " node(s)";
  }
  if (!(memoryLimit.getValueAsDouble() >= 0))
    return emitError() << "memory_limit must be a number of bytes (0: the "
                          "smallest node's memory)";
  return success();
}

LogicalResult TaskGraphDialect::verifyOperationAttribute(Operation *op,
                                                         NamedAttribute attr) {
  if (attr.getName() != kMachineAttrName)
    return op->emitError("unknown cmmtg attribute '")
           << attr.getName().getValue() << "'";
  if (!isa<ModuleOp, GraphOp>(op))
    return op->emitError("'")
           << kMachineAttrName << "' belongs on a module or a cmmtg.graph";
  if (!isa<MachineAttr>(attr.getValue()))
    return op->emitError("'")
           << kMachineAttrName << "' must be a #cmmtg.machine, got "
           << attr.getValue();
  return success();
}
