//===- TilePass.cpp - cmm IR to one tiled task graph per size ---*- C++ -*-===//

#include "cmm/Conversion/CmmToTaskGraph/Tiling.h"
#include "cmm/Planning/Passes.h"
#include "cmm/Planning/TaskGraphIR.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <numeric>

namespace cmm {
#define GEN_PASS_DEF_TILETASKGRAPH
#include "cmm/Planning/Passes.h.inc"
} // namespace cmm

using namespace mlir;
using namespace cmm;
using namespace cmm::scheduling;
using namespace cmm::tiling;
using namespace cmm::planning;

namespace {
struct TileTaskGraphPass
    : public cmm::impl::TileTaskGraphBase<TileTaskGraphPass> {
  using TileTaskGraphBase::TileTaskGraphBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto main = module.lookupSymbol<func::FuncOp>("main");
    if (!main || main.isExternal()) {
      mlir::emitError(module.getLoc(),
                      "cmm-tile: no func.func @main with a body to tile");
      return signalPassFailure();
    }
    std::vector<int64_t> sizes;
    for (int64_t size : tileSizes)
      if (std::find(sizes.begin(), sizes.end(), size) == sizes.end())
        sizes.push_back(size);
    if (sizes.empty())
      sizes = defaultTileSizes(main);

    // cosma-nodes=N: every product one distributed_gemm over nodes 0..N-1.
    std::vector<unsigned> everyNode(cosmaNodes);
    std::iota(everyNode.begin(), everyNode.end(), 0u);
    GangGemmChoice gang;
    gang.use = [&](int64_t, int64_t, int64_t, std::vector<unsigned> &nodes,
                   std::string &) {
      nodes = everyNode;
      return true;
    };

    std::vector<OpDecl> ops = declareOps(main);
    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    for (int64_t size : sizes) {
      TaskGraph graph;
      std::string error;
      int64_t startup =
          dynamicWorkers ? startupTileSize(main, size, dynamicWorkers) : 0;
      Operation *failedOp = nullptr;
      if (!buildTaskGraph(main, size, graph, error, startup,
                          cosmaNodes ? &gang : nullptr, &failedOp)) {
        mlir::emitError(failedOp ? failedOp->getLoc() : main.getLoc(),
                        "cmm-tile: ")
            << error;
        return signalPassFailure();
      }
      emitTaskGraph(builder, main.getLoc(), graph, ops, size,
                    main.getSymName());
    }
  }
};
} // namespace
