//===- TaskGraph.cpp - The scheduling problem -------------------*- C++ -*-===//

#include "cmm/Scheduling/TaskGraph.h"
#include "cmm/Scheduling/CostModel.h"

#include "cmmrt/Plan.h"

#include <algorithm>
#include <cassert>

using namespace cmm::scheduling;

const char *cmm::scheduling::taskKindName(TaskKind kind) {
  if (kind == TaskKind::Abstract)
    return "task";
  return cmmrt::plan::taskKindName(static_cast<cmmrt::plan::TaskKind>(kind));
}

TaskId TaskGraph::addTask(Task task) {
  TaskId id = static_cast<TaskId>(taskList.size());
  task.inputReuse.clear();
  for (DataId d : task.inputs) {
    assert(d < dataList.size() && "input data must exist");
    dataList[d].consumers.push_back(id);
    double bytes = dataList[d].bytes;
    task.inputReuse.push_back({bytes, touchedBytes - lastTouch[d] + bytes});
    touchedBytes += bytes;
    lastTouch[d] = touchedBytes;
  }
  task.freshPack = {};
  if (!task.isGang()) {
    BlasPack pack = blasPack(task.op, task.m, task.n, task.k);
    BlasPack &mark = packed[pack.family];
    task.freshPack = {pack.family, std::max(0.0, pack.shared - mark.shared),
                      std::max(0.0, pack.perThread - mark.perThread),
                      std::max(0.0, pack.oneThread - mark.oneThread)};
    mark.shared = std::max(mark.shared, pack.shared);
    mark.perThread = std::max(mark.perThread, pack.perThread);
    mark.oneThread = std::max(mark.oneThread, pack.oneThread);
  }
  taskList.push_back(std::move(task));
  return id;
}

DataId TaskGraph::addData(TaskId producer, double bytes, std::string name) {
  assert(producer < taskList.size() && "producer must exist");
  DataId id = static_cast<DataId>(dataList.size());
  dataList.push_back({std::move(name), producer, bytes, {}});
  taskList[producer].outputs.push_back(id);
  touchedBytes += bytes;
  lastTouch.push_back(touchedBytes);
  return id;
}

std::vector<TaskId> TaskGraph::successors(TaskId t) const {
  std::vector<TaskId> out;
  for (DataId d : taskList[t].outputs)
    out.insert(out.end(), dataList[d].consumers.begin(),
               dataList[d].consumers.end());
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<TaskId> TaskGraph::predecessors(TaskId t) const {
  std::vector<TaskId> out;
  for (DataId d : taskList[t].inputs)
    out.push_back(dataList[d].producer);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

double CostModel::averageTaskTime(const Task &task, TaskId id) const {
  double sum = 0;
  unsigned n = numNodes();
  for (unsigned node = 0; node < n; ++node)
    sum += taskTime(task, id, node);
  return n ? sum / n : 0;
}

double CostModel::averageTransferTime(const DataItem &data, DataId id) const {
  unsigned n = numNodes();
  if (n < 2)
    return 0;
  double sum = 0;
  for (unsigned a = 0; a < n; ++a)
    for (unsigned b = 0; b < n; ++b)
      if (a != b)
        sum += transferTime(data, id, a, b);
  return sum / (double(n) * (n - 1));
}

unsigned CostModel::totalWorkers() const {
  unsigned total = 0;
  for (unsigned node = 0; node < numNodes(); ++node)
    total += workers(node);
  return total;
}
