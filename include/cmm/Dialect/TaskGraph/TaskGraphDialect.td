//===- TaskGraphDialect.td - The cmmtg dialect ------------*- tablegen -*-===//
//
// The `cmmtg` ("cmm task graph") dialect is the low level of cmm: a program
// cut into tiles by the paper's tile function (ceil division, ragged edge
// tiles) and into tasks on those tiles. A graph is first unscheduled (tasks
// only, in a topological order); scheduling places every task on a node and
// worker with start and finish times, and adds the transfers (`recv`) and
// the tile-cache commands (`cache_put`, `evict`) of the plan.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_TASKGRAPH_DIALECT_TD
#define CMM_TASKGRAPH_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def TaskGraph_Dialect : Dialect {
  let name = "cmmtg";
  let cppNamespace = "::cmm::tg";
  let summary = "Tiles and tasks of a tiled, scheduled cmm program";
  let description = [{
    Values are tiles (`!cmmtg.tile<RxC>`, f64 elements). Ops: `cmmtg.graph`
    (one task graph, for one tile size), `cmmtg.task` (one task of a kind:
    generate, load, gemm, gemm_acc, elementwise, transpose, reduce, gather,
    solve, distributed_gemm), `cmmtg.recv` (a send/receive pair between two
    nodes; its result is the copy on the receiving node), `cmmtg.cache_put`
    and `cmmtg.evict` (the node-level tile cache).
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  // The module's `cmmtg.machine` must be a machine model.
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// The machine a program is planned for, on its module; on a
    /// `cmmtg.graph`, the configuration of it that graph runs (a segment
    /// planned on the master alone, with every core's BLAS threads there).
    static constexpr ::llvm::StringLiteral kMachineAttrName = "cmmtg.machine";
  }];
}

class TG_Op<string mnemonic, list<Trait> traits = []>
    : Op<TaskGraph_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

def TG_TileType : TypeDef<TaskGraph_Dialect, "Tile"> {
  let mnemonic = "tile";
  let summary = "a rows x cols tile of f64";
  let description = [{
    One tile of a matrix: `!cmmtg.tile<5x2>`. Edge tiles are ragged (the
    last row or column of tiles is ceil-division's remainder).
  }];
  let parameters = (ins "int64_t":$rows, "int64_t":$cols);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Bytes of the tile's data (8 per element).
    double getBytes() const { return 8.0 * getRows() * getCols(); }
  }];
}

/// A tile value; printed in full (`!cmmtg.tile<RxC>`) in op syntax.
def TG_Tile : Type<CPred<"::llvm::isa<::cmm::tg::TileType>($_self)">,
                   "tile", "::mlir::Type">;

//===----------------------------------------------------------------------===//
// The machine model (docs/machine-model.md) as attributes
//===----------------------------------------------------------------------===//

class TG_Attr<string name, string attrMnemonic>
    : AttrDef<TaskGraph_Dialect, name> {
  let mnemonic = attrMnemonic;
}

def TG_LinkAttr : TG_Attr<"Link", "link"> {
  let summary = "a network link: latency (s) and bandwidth (bytes/s)";
  let parameters = (ins "::mlir::FloatAttr":$latency,
                        "::mlir::FloatAttr":$bandwidth);
  let assemblyFormat = "`<` struct(params) `>`";
}

def TG_RouteAttr : TG_Attr<"Route", "route"> {
  let summary = "the link from one node to another, where not the default";
  let parameters = (ins "int64_t":$from, "int64_t":$to, "LinkAttr":$link);
  let assemblyFormat = "`<` struct(params) `>`";
}

def TG_NodeAttr : TG_Attr<"Node", "node"> {
  let summary = "one node of a machine";
  let description = [{
    Its cores, worker and communicator processes, BLAS threads per worker,
    memory (bytes), the time polynomial of each cost class (Table 1 of the
    paper: eight coefficients of 1, m, n, k, mn, mk, nk, mnk), and,
    printed when present, the seconds per byte of writing fresh pages
    (`first_touch`, absent: 0) and the size of the huge pages fresh tiles
    are mapped in (`huge_page_bytes`, absent: none), the bandwidth the
    node's communicators share (`network`, bytes per second, absent:
    unlimited), the
    runtime's seconds per task beyond its kernel (`task_overhead`, absent:
    0), the CPU seconds a receive takes per transfer and per byte
    (`receive_cpu`, `receive_cpu_per_byte`, absent: 0) and a send to
    another host (`send_cpu`, `send_cpu_per_byte`, absent: 0), both
    charged to the workers where they and the communicators need more than
    the cores, and
    the splits of its cores cmm-profile timed (`configurations`: workers,
    threads and gemm factor of each, three numbers a split; absent: none),
    and its last-level cache (`cache_bytes`, absent: no cache model) with
    the share of its cold time a task that streams memory takes on inputs
    still in it (`hot_factor`, in (0, 1], absent: 1).

    ```mlir
    #cmmtg.node<name = "c5", cores = 36, workers = 3, threads = 12,
      communicators = 3, memory = 7.2e10 : f64,
      time = {gemm = array<f64: 0.0, ...>, ...}>
    ```
  }];
  let parameters = (ins StringRefParameter<>:$name, "int64_t":$cores,
                        "int64_t":$workers, "int64_t":$threads,
                        "int64_t":$communicators, "::mlir::FloatAttr":$memory,
                        "::mlir::DictionaryAttr":$time,
                        OptionalParameter<"::mlir::FloatAttr">:$first_touch,
                        OptionalParameter<"::mlir::FloatAttr">:$network,
                        OptionalParameter<"::mlir::FloatAttr">:$task_overhead,
                        OptionalParameter<"::mlir::FloatAttr">:$receive_cpu,
                        OptionalParameter<"::mlir::FloatAttr">:$receive_cpu_per_byte,
                        OptionalParameter<"::mlir::FloatAttr">:$send_cpu,
                        OptionalParameter<"::mlir::FloatAttr">:$send_cpu_per_byte,
                        OptionalParameter<"::mlir::DenseF64ArrayAttr">:$configurations,
                        OptionalParameter<"::mlir::FloatAttr">:$cache_bytes,
                        OptionalParameter<"::mlir::FloatAttr">:$hot_factor,
                        OptionalParameter<"::mlir::IntegerAttr">:$huge_page_bytes);
  let assemblyFormat = "`<` struct(params) `>`";
}

def TG_MachineAttr : TG_Attr<"Machine", "machine"> {
  let summary = "the machine a program is planned for";
  let description = [{
    The machine model of docs/machine-model.md in the IR: attached to the
    module as `cmmtg.machine` (by `cmm-attach-machine-model`, by
    `cmm-plan`, by `cmmc --machine-model`, or from C++), read by the
    planning passes and code generation. Node 0 is the master; `link` is
    the default link and `routes` the links that differ; `memory_limit` is
    the memory per rank distributed products may use (bytes; 0: the
    smallest node's memory; CMM_MAX_MEMORY overrides it); `master_alone`,
    when present, is node 0 while every other node is idle (nodes sharing
    one host's cores: a master-only plan has them all).
  }];
  let parameters = (ins StringRefParameter<>:$name,
                        "::mlir::ArrayAttr":$nodes, "LinkAttr":$link,
                        "::mlir::ArrayAttr":$routes,
                        "::mlir::FloatAttr":$memory_limit,
                        OptionalParameter<"NodeAttr">:$master_alone);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif // CMM_TASKGRAPH_DIALECT_TD
