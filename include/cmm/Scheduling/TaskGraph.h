//===- TaskGraph.h - The scheduling problem ---------------------*- C++ -*-===//
//
// A task graph in the shape of CIRCT's scheduling problems: tasks consume and
// produce data items (tiles); a task may start on a node once each input is
// on that node. Plain data, printable and testable without MLIR; the IR is
// only at the edges (Tiling.h builds a graph from cmm IR).
//
//===----------------------------------------------------------------------===//

#ifndef CMM_SCHEDULING_TASKGRAPH_H
#define CMM_SCHEDULING_TASKGRAPH_H

#include "cmm/Scheduling/BlasPack.h"
#include "cmm/Scheduling/MachineModel.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace cmm::scheduling {

using TaskId = uint32_t;
using DataId = uint32_t;

/// The kinds of cmmrt/TaskKinds.def (the one list of task kinds), and
/// Abstract for tests whose costs are given per processor.
enum class TaskKind {
#define CMM_TASK_KIND(Enumerator, name) Enumerator,
#include "cmmrt/TaskKinds.def"
  Abstract,
};

const char *taskKindName(TaskKind kind);

struct DataItem {
  std::string name;
  TaskId producer = 0;
  double bytes = 0;
  std::vector<TaskId> consumers; // filled by TaskGraph::addTask
  int64_t rows = 0, cols = 0;    // the tile's shape, when known (0: unknown)
  int64_t row0 = 0, col0 = 0;    // where the tile sits in its matrix
};

struct Task {
  std::string name;
  TaskKind kind = TaskKind::Abstract;
  CostClass op = CostClass::Elementwise;
  double m = 1, n = 1, k = 1; // time-model parameters
  std::vector<DataId> inputs;
  std::vector<DataId> outputs;
  /// Per input (TaskGraph::addTask sets them): its bytes, and its reuse
  /// distance, the bytes the graph's tasks read and wrote, in the order
  /// they were added (program order), since the input was last read or
  /// written (its producer wrote it at the latest), plus its own. An input
  /// whose distance fits in a node's last-level cache is read from there
  /// (CostModel.h, hotInputShare; docs/machine-model.md "Cache reuse"). The
  /// bytes are the DataItem's, kept here because a cost model's taskTime
  /// sees the task, not the graph.
  struct InputReuse {
    double bytes = 0, distance = 0;
  };
  std::vector<InputReuse> inputReuse;
  /// Bytes of the BLAS packing buffer this BLAS-3 task touches first: what
  /// it packs (blasPack, BlasPack.h) beyond the largest of its family's
  /// tasks added before it (TaskGraph::addTask), once for the call and per
  /// BLAS thread. OpenBLAS keeps that buffer for the process, so only a
  /// call that packs more than every earlier one faults pages in
  /// (docs/machine-model.md, "The BLAS packing buffer").
  BlasPack freshPack;
  /// Must run on this node (loads, gathers: the master), or -1.
  int pinnedNode = -1;
  /// Its inputs are wanted on its (pinned) node: a segment's export kept
  /// where a later segment reads it (tiling::kKeepOnAttr). HEFT places
  /// their producers with the transfer there in view.
  bool drawsInputs = false;
  /// The op of the tiled function this task computes a part of (its index
  /// in the function body), or -1 (merges, tests). Code generation reads
  /// the op's semantics from it; the planner does not.
  int opIndex = -1;
  /// A gang task (distributed-gemm) occupies every worker of each of these
  /// nodes at once, from one start to one finish; it reads each input on a
  /// gang node that holds it, and its outputs appear on the first node.
  /// Empty for an ordinary task.
  std::vector<unsigned> gangNodes;
  bool isGang() const { return !gangNodes.empty(); }
};

class TaskGraph {
public:
  /// Adds a task with its inputs (which must exist) and returns its id.
  TaskId addTask(Task task);
  /// Adds a data item produced by `producer` (an existing task).
  DataId addData(TaskId producer, double bytes, std::string name = "");
  /// Makes `task` a gang task over `nodes` (the first holds its data).
  void setGang(TaskId task, std::vector<unsigned> nodes) {
    taskList[task].gangNodes = std::move(nodes);
  }
  /// Pins `task` to `node` (-1: anywhere). Loads and gathers are pinned to
  /// the master when made; a plan on the master alone pins every task.
  void pin(TaskId task, int node) { taskList[task].pinnedNode = node; }
  /// Marks `task`'s inputs as wanted on its node (Task::drawsInputs).
  void drawInputs(TaskId task) { taskList[task].drawsInputs = true; }
  /// Records the tile shape of `data` (the task-graph IR needs it).
  void setShape(DataId data, int64_t rows, int64_t cols) {
    dataList[data].rows = rows;
    dataList[data].cols = cols;
  }
  /// Records the tile's shape and its position in its matrix.
  void setRegion(DataId data, int64_t row0, int64_t col0, int64_t rows,
                 int64_t cols) {
    setShape(data, rows, cols);
    dataList[data].row0 = row0;
    dataList[data].col0 = col0;
  }

  /// Re-costs `task`: the tiler's matrix-vector products on compressed
  /// rows, known once every reader of the matrix is (Tiling.cpp).
  void setCost(TaskId task, CostClass op, double k) {
    taskList[task].op = op;
    taskList[task].k = k;
  }
  void setCost(TaskId task, CostClass op, double m, double n, double k) {
    taskList[task].m = m;
    taskList[task].n = n;
    setCost(task, op, k);
  }

  const std::vector<Task> &tasks() const { return taskList; }
  const std::vector<DataItem> &data() const { return dataList; }
  const Task &task(TaskId t) const { return taskList[t]; }
  const DataItem &item(DataId d) const { return dataList[d]; }
  size_t size() const { return taskList.size(); }

  // Task ids are a topological order: a task's inputs exist when it is
  // added, so producers come first.

  /// Tasks that consume an output of `t`, and tasks whose outputs `t` uses.
  std::vector<TaskId> successors(TaskId t) const;
  std::vector<TaskId> predecessors(TaskId t) const;

private:
  std::vector<Task> taskList;
  std::vector<DataItem> dataList;
  /// Bytes read and written so far, and where each item was last touched
  /// in that count (the reuse distances of Task::inputReuse).
  double touchedBytes = 0;
  std::vector<double> lastTouch;
  /// The largest blasPack parts of the tasks added so far, by family.
  std::array<BlasPack, BlasPack::NumFamilies> packed;
};

} // namespace cmm::scheduling

#endif // CMM_SCHEDULING_TASKGRAPH_H
