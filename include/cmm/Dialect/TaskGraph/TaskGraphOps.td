//===- TaskGraphOps.td - Operations of the cmmtg dialect --*- tablegen -*-===//
//
// A graph holds its tasks, transfers and cache commands in one block. In a
// scheduled graph (one with a `makespan`), every tile value is located on
// one node: a task result where the task ran, a `recv` result on the
// receiving node; the graph verifier checks that every use is on the node
// where the value is.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_TASKGRAPH_OPS_TD
#define CMM_TASKGRAPH_OPS_TD

include "cmm/Dialect/TaskGraph/TaskGraphDialect.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TG_GraphOp : TG_Op<"graph", [IsolatedFromAbove, NoRegionArguments,
                                 SymbolTable,
                                 SingleBlockImplicitTerminator<"EndOp">]> {
  let summary = "the tiled task graph of a function for one tile size";
  let description = [{
    `function` names the function the graph was tiled from and `tile_size`
    the side of its square tiles. The body first declares the operations of
    the program (`cmmtg.op`, in program order), then holds the tasks, which
    name the operation they compute part of: a graph is the whole program,
    whatever becomes of the function afterwards. Unscheduled, the tasks are
    in a topological order. Scheduled (`makespan` set, with the `scheduler` that
    made the plan and the number of `nodes` of the machine; the machine
    itself, its workers, threads and communicators per node, is the
    module's `cmmtg.machine`), every task has a placement, and the body
    holds tasks, transfers and cache commands in start-time order.

    ```mlir
    cmmtg.graph @main tile_size 5000 attributes {makespan = 1.25 : f64,
        nodes = 2 : i64, scheduler = "heft"} {
      %0 = cmmtg.task generate () {m = 5000 : i64, n = 5000 : i64, node = 1 : i64, ...}
          : () -> !cmmtg.tile<5000x5000>
      ...
    }
    ```

    The verifier checks a graph whose tasks are placed: every operand of a
    task on node N is located on N, every `recv` takes its operand on its
    `from` node, pinned tasks run on their node, no value is used after it
    was evicted, and (when times are present) no task or transfer starts
    before its operands are ready.
  }];
  let arguments = (ins SymbolNameAttr:$function, I64Attr:$tile_size,
                   OptionalAttr<F64Attr>:$makespan,
                   OptionalAttr<StrAttr>:$scheduler,
                   OptionalAttr<I64Attr>:$nodes);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $function `tile_size` $tile_size attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::llvm::StringRef":$function, "int64_t":$tileSize)>
  ];
  let extraClassDeclaration = [{
    /// A plan: the graph has a makespan.
    bool isScheduled() { return getMakespan().has_value(); }
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
  }];
}

def TG_OpDeclOp : TG_Op<"op", [HasParent<"GraphOp">, Symbol]> {
  let summary = "an operation of the program, which tasks compute";
  let description = [{
    One operation of the program a graph was tiled from, with what code
    generation needs to run its tasks: the op `code` (one of
    `runtime/include/cmmrt/OpCodes.def`), the result's `rows` x `cols`
    (print/save: the printed matrix's), the first operand's `in_rows` x
    `in_cols` where it matters (reductions) and the op's parameters: `value`
    (fill value, scale factor, printed scalar), `seed` and `id` (rand,
    randn; `id` alone for import and export: the number of the segment's
    argument or result, cmm/Planning/Segments.h), `first` and `last` (range), `dim` (reductions: 1, 2, or 0 for
    the whole matrix), `fn` (map: a cmm unary function), `transpose_lhs`
    and `transpose_rhs` (matmul: operands read transposed), `method`
    (solve: the cmmrt::SolveMethod), `replaces` (solve: `inv` or `pinv`,
    the call whose errors it states, cmmrt::restateAs), `symmetric` (chol, eig, eigvals: the
    input is symmetric by construction, no run-time test), `label`
    (print, print_scalar), `display` (print: every row too), `path` (load,
    save), `data` (constant), `row` and `col` (slice, insert: the block's
    first element, from 0), `inputs` and `kernel` (fused: the operand count
    and the body as the runtime's kernel text, cmmrt/Fused.h). Its
    location is the source of the op. The declarations stand in program
    order; print, print_scalar and save among them are the program's
    outputs, written in that order.

    ```mlir
    cmmtg.op @matmul2 matmul {cols = 64 : i64, rows = 64 : i64}
    %c = cmmtg.task gemm (%a, %b) {op = @matmul2, ...} : ...
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, I32Attr:$code,
                   I64Attr:$rows, I64Attr:$cols,
                   OptionalAttr<I64Attr>:$in_rows,
                   OptionalAttr<I64Attr>:$in_cols,
                   OptionalAttr<F64Attr>:$value,
                   OptionalAttr<I64Attr>:$seed, OptionalAttr<I64Attr>:$id,
                   OptionalAttr<I64Attr>:$first, OptionalAttr<I64Attr>:$last,
                   OptionalAttr<I64Attr>:$dim, OptionalAttr<StrAttr>:$fn,
                   OptionalAttr<I64Attr>:$row, OptionalAttr<I64Attr>:$col,
                   UnitAttr:$display,
                   UnitAttr:$transpose_lhs, UnitAttr:$transpose_rhs,
                   OptionalAttr<I64Attr>:$method,
                   OptionalAttr<StrAttr>:$replaces, UnitAttr:$symmetric,
                   OptionalAttr<StrAttr>:$label, OptionalAttr<StrAttr>:$path,
                   OptionalAttr<ElementsAttr>:$data,
                   OptionalAttr<I64Attr>:$inputs,
                   OptionalAttr<StrAttr>:$kernel);
  let assemblyFormat = "$sym_name custom<OpCode>($code) attr-dict";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::cmmrt::plan::OpCode getOpCode() {
      return static_cast<::cmmrt::plan::OpCode>(getCode());
    }
  }];
}

def TG_EndOp : TG_Op<"end", [Terminator, HasParent<"GraphOp">, Pure]> {
  let summary = "terminator of a graph (implicit in the custom form)";
  let assemblyFormat = "attr-dict";
}

def TG_TaskOp : TG_Op<"task", [HasParent<"GraphOp">]> {
  let summary = "one task on tiles";
  let description = [{
    A task of a `kind` on input tiles, producing result tiles:

    | kind | inputs | results |
    |---|---|---|
    | `generate`, `load` | none | one tile (`m` x `n`) |
    | `gemm` | A (m x k), B (k x n) | C (m x n) |
    | `gemm_acc` | A (m x k), B (k x n), C' (m x n) | C' + A B (m x n), the paper's addmul |
    | `elementwise` | one or more tiles, broadcasting | one tile |
    | `transpose` | one tile (r x c) | one tile (c x r) |
    | `reduce` | one tile (partial reduction) or two partials (combine) | one tile |
    | `gather` | tiles | none: copies them to the master (takecopy) |
    | `solve` | the tiles of whole matrices | the tiles of the result |
    | `distributed_gemm` | the tiles of A and B | the tiles of C |
    | `merge` | sub-tiles (dynamic tiling) | the one tile they cover |

    `m`, `n`, `k` are the parameters of the time model (default 1) and
    `cost` its class when it is not the kind's default (e.g. `map` for an
    elementwise function). A scheduled task has `node`, `worker`, `start`
    and `finish`, and `touch` where the simulation added seconds of
    first-touch page faults to it (its fresh pages; not in `finish -
    start`, the scheduler's); `pinned` forces a node (loads and gathers run on the
    master, node 0). A `distributed_gemm` is a gang task: it occupies the
    workers of every node of `nodes` at once; it reads each operand on
    whichever gang node holds it (COSMA moves the operands into its layout
    from anywhere), and its results appear on `node` (one of them). The
    planner makes one for a product that COSMA runs faster (`gemm=auto`) or
    for every product (`gemm=cosma`).

    A task tiled from a program names the `op` it computes part of (a
    `cmmtg.op` of its graph; every kind but `merge` has one in a graph that
    code is generated from, and the kind must fit the op: a `gemm` is part
    of a product, a `gather` of a print or save, ...) and, per result, the
    `origins` of the tile in its matrix (row, column pairs).

    ```mlir
    %c = cmmtg.task gemm_acc (%a, %b, %c0) {k = 5 : i64, m = 5 : i64, n = 2 : i64}
        : (!cmmtg.tile<5x5>, !cmmtg.tile<5x2>, !cmmtg.tile<5x2>) -> !cmmtg.tile<5x2>
    %e = cmmtg.task elementwise cost map (%c) : (!cmmtg.tile<5x2>) -> !cmmtg.tile<5x2>
    ```
  }];
  // The kind, one of cmmrt/TaskKinds.def, and the cost class, one of
  // cmmrt/CostClasses.def, printed by their names.
  let arguments = (ins I32Attr:$kind, Variadic<TG_Tile>:$inputs,
                   OptionalAttr<StrAttr>:$name,
                   OptionalAttr<I32Attr>:$cost,
                   OptionalAttr<I64Attr>:$m, OptionalAttr<I64Attr>:$n,
                   OptionalAttr<I64Attr>:$k,
                   OptionalAttr<I64Attr>:$pinned,
                   OptionalAttr<I64Attr>:$node, OptionalAttr<I64Attr>:$worker,
                   OptionalAttr<F64Attr>:$start, OptionalAttr<F64Attr>:$finish,
                   OptionalAttr<F64Attr>:$touch,
                   OptionalAttr<DenseI64ArrayAttr>:$nodes,
                   OptionalAttr<FlatSymbolRefAttr>:$op,
                   OptionalAttr<DenseI64ArrayAttr>:$origins);
  let results = (outs Variadic<TG_Tile>:$results);
  let assemblyFormat = [{
    custom<TaskKind>($kind) (`cost` custom<CostClass>($cost)^)? ` ` `(` $inputs `)` attr-dict `:`
    functional-type($inputs, $results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    TaskKind getTaskKind() { return static_cast<TaskKind>(getKind()); }
    /// The time-model class: `cost`, else the kind's default.
    CostClass getCostClass();
    /// Whether the task has a placement (a `node`).
    bool isPlaced() { return getNode().has_value(); }
  }];
}

def TG_RecvOp : TG_Op<"recv", [HasParent<"GraphOp">,
                               AllTypesMatch<["input", "result"]>]> {
  let summary = "a tile sent from one node and received on another";
  let description = [{
    One transfer (a send on `from` and the matching receive on `to`). The
    operand is the tile on `from`; the result is its copy on `to`. A
    scheduled transfer names the communicators it occupies on both ends and
    its start and finish (and `touch`, as a task's: the receiver's fresh
    pages).

    ```mlir
    %1 = cmmtg.recv %0 from 0 to 3 {recv_comm = 0 : i64, send_comm = 1 : i64,
        start = 1.0 : f64, finish = 1.5 : f64} : !cmmtg.tile<5x5>
    ```
  }];
  let arguments = (ins TG_Tile:$input, I64Attr:$from, I64Attr:$to,
                   OptionalAttr<I64Attr>:$send_comm,
                   OptionalAttr<I64Attr>:$recv_comm,
                   OptionalAttr<F64Attr>:$start, OptionalAttr<F64Attr>:$finish,
                   OptionalAttr<F64Attr>:$touch);
  let results = (outs TG_Tile:$result);
  let assemblyFormat = [{
    $input `from` $from `to` $to attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

class TG_CacheOp<string mnemonic, string what>
    : TG_Op<mnemonic, [HasParent<"GraphOp">]> {
  let summary = what;
  let arguments = (ins TG_Tile:$tile, I64Attr:$node,
                   OptionalAttr<F64Attr>:$time);
  let assemblyFormat = [{
    $tile `on` $node (`at` $time^)? attr-dict `:` type($tile)
  }];
  let hasVerifier = 1;
}

def TG_CachePutOp : TG_CacheOp<"cache_put",
                               "a received tile enters a node's tile cache"> {
  let description = [{
    ```mlir
    cmmtg.cache_put %1 on 3 at 1.5 : !cmmtg.tile<5x5>
    ```
  }];
}

def TG_EvictOp : TG_CacheOp<"evict", "a tile leaves a node's memory"> {
  let description = [{
    After an eviction the value may not be used again (a later use on the
    node needs a new transfer).

    ```mlir
    cmmtg.evict %1 on 3 at 2.0 : !cmmtg.tile<5x5>
    ```
  }];
}

#endif // CMM_TASKGRAPH_OPS_TD
