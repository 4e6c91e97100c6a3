//===- PlanOutputTest.cpp - Chrome traces and Gantt charts ------*- C++ -*-===//

#include "cmm/Scheduling/PlanOutput.h"
#include "cmm/Scheduling/Schedulers.h"

#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

using namespace cmm::scheduling;
namespace json = llvm::json;

namespace {
/// Five tasks over two nodes, with a hand-made plan:
///   node 0: gen A [0,2], a<b&c [4,8], scale [8,8] (zero duration)
///   node 1: gen B [0,3], neg [3,5]
///   B[0] from node 1 to node 0 on communicator 0 of each, [3,4].
struct HandPlan {
  TaskGraph graph;
  TableCostModel cost{{{2, 2}, {3, 3}, {4, 4}, {0, 0}, {2, 2}},
                      {1, 1, 1, 1, 1}};
  Schedule plan;

  HandPlan() {
    Task genA{"gen A", TaskKind::Generate, CostClass::Generate};
    TaskId t0 = graph.addTask(genA);
    DataId a = graph.addData(t0, 800, "A[0]");
    Task genB{"gen B", TaskKind::Generate, CostClass::Generate};
    TaskId t1 = graph.addTask(genB);
    DataId b = graph.addData(t1, 800, "B[0]");
    Task gemm{"a<b&c", TaskKind::Gemm, CostClass::Gemm, 10, 20, 30, {a, b}};
    TaskId t2 = graph.addTask(gemm);
    DataId c = graph.addData(t2, 800, "C");
    Task scale{"scale", TaskKind::Elementwise, CostClass::Elementwise};
    scale.inputs = {c};
    graph.addData(graph.addTask(scale), 800, "D");
    Task neg{"neg", TaskKind::Elementwise, CostClass::Elementwise};
    neg.inputs = {b};
    graph.addData(graph.addTask(neg), 800, "E");

    plan.placement = {
        {0, 0, 0, 2}, {1, 0, 0, 3}, {0, 0, 4, 8}, {0, 0, 8, 8}, {1, 0, 3, 5}};
    plan.transfers = {{b, 1, 0, 0, 0, 3, 4}};
    plan.cacheEvents = {{CacheEvent::Put, b, 0, 4},
                        {CacheEvent::Evict, b, 0, 8}};
    plan.makespan = 8;
    plan.bytesMoved = 800;
  }
};

std::string trace(const TaskGraph &g, const Schedule &s, const CostModel &c,
                  llvm::StringRef label = "") {
  std::string text;
  llvm::raw_string_ostream os(text);
  writeChromeTrace(g, s, c, os, label);
  return text;
}

std::string svg(const TaskGraph &g, const Schedule &s, const CostModel &c,
                llvm::StringRef title = "") {
  std::string text;
  llvm::raw_string_ostream os(text);
  writeGanttSVG(g, s, c, os, title);
  return text;
}

/// The parsed trace, and its events split by phase.
struct ParsedTrace {
  json::Value root = nullptr;
  std::vector<const json::Object *> all, complete, instant, meta;

  explicit ParsedTrace(const std::string &text) {
    llvm::Expected<json::Value> v = json::parse(text);
    if (!v) {
      ADD_FAILURE() << "invalid JSON: " << llvm::toString(v.takeError());
      return;
    }
    root = std::move(*v);
    const json::Object *obj = root.getAsObject();
    if (!obj) {
      ADD_FAILURE() << "trace is not an object";
      return;
    }
    const json::Array *events = obj->getArray("traceEvents");
    if (!events) {
      ADD_FAILURE() << "no traceEvents";
      return;
    }
    for (const json::Value &e : *events) {
      const json::Object *o = e.getAsObject();
      if (!o) {
        ADD_FAILURE() << "an event is not an object";
        continue;
      }
      all.push_back(o);
      llvm::StringRef ph = o->getString("ph").value_or("");
      if (ph == "X")
        complete.push_back(o);
      else if (ph == "i")
        instant.push_back(o);
      else if (ph == "M")
        meta.push_back(o);
    }
  }

  const json::Object *event(llvm::StringRef name) const {
    for (const json::Object *o : all)
      if (o->getString("name") == name)
        return o;
    return nullptr;
  }

  /// The name metadata ("process_name"/"thread_name") of (pid, tid);
  /// tid < 0 for a process.
  std::string metaName(llvm::StringRef kind, int64_t pid, int64_t tid) const {
    for (const json::Object *o : meta)
      if (o->getString("name") == kind && o->getInteger("pid") == pid &&
          (tid < 0 || o->getInteger("tid") == tid))
        return o->getObject("args")->getString("name").value_or("").str();
    return "";
  }

  /// The tid named `thread` in process `pid`, or -1.
  int64_t tidOf(int64_t pid, llvm::StringRef thread) const {
    for (const json::Object *o : meta)
      if (o->getString("name") == "thread_name" &&
          o->getInteger("pid") == pid &&
          o->getObject("args")->getString("name") == thread)
        return *o->getInteger("tid");
    return -1;
  }

  int64_t sortIndex(int64_t pid, int64_t tid) const {
    for (const json::Object *o : meta)
      if (o->getString("name") == "thread_sort_index" &&
          o->getInteger("pid") == pid && o->getInteger("tid") == tid)
        return *o->getObject("args")->getInteger("sort_index");
    return -1;
  }
};

size_t count(const std::string &text, const std::string &what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos;
       at = text.find(what, at + what.size()))
    ++n;
  return n;
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
    s.pop_back();
  return s;
}

/// A graph for HEFT: 8 independent generates, 4 gemms of pairs, a reduce.
TaskGraph wideGraph() {
  TaskGraph g;
  std::vector<DataId> tiles, products;
  for (int i = 0; i < 8; ++i) {
    Task t{"gen " + std::to_string(i), TaskKind::Generate, CostClass::Generate};
    tiles.push_back(g.addData(g.addTask(t), 1000, "A" + std::to_string(i)));
  }
  for (int i = 0; i < 4; ++i) {
    Task t{"gemm " + std::to_string(i), TaskKind::Gemm, CostClass::Gemm};
    t.inputs = {tiles[2 * i], tiles[2 * i + 1]};
    products.push_back(g.addData(g.addTask(t), 1000, "P" + std::to_string(i)));
  }
  Task sum{"sum", TaskKind::Reduce, CostClass::Reduce};
  sum.inputs = products;
  sum.pinnedNode = 0;
  g.addData(g.addTask(sum), 8, "S");
  return g;
}

TableCostModel wideCost() {
  std::vector<std::vector<double>> time;
  for (int i = 0; i < 8; ++i)
    time.push_back({5, 5});
  for (int i = 0; i < 4; ++i)
    time.push_back({10, 10});
  time.push_back({1, 1});
  return TableCostModel(time, std::vector<double>(13, 1.0));
}
} // namespace

TEST(ChromeTrace, HandPlanEventsAndTimes) {
  HandPlan h;
  SchedulerOptions options;
  ASSERT_EQ(verifySchedule(h.graph, h.cost, h.plan, options), "");
  ParsedTrace t(trace(h.graph, h.plan, h.cost, "hand \"plan\""));
  ASSERT_NE(t.root.getAsObject(), nullptr);
  const json::Object &root = *t.root.getAsObject();
  EXPECT_EQ(root.getString("displayTimeUnit"), "ms");
  const json::Object *other = root.getObject("otherData");
  ASSERT_NE(other, nullptr);
  EXPECT_EQ(other->getString("label"), "hand \"plan\"");
  EXPECT_EQ(other->getNumber("makespan_s"), 8.0);

  // 5 tasks + 2 sides of one transfer; 2 cache events.
  EXPECT_EQ(t.complete.size(), 7u);
  EXPECT_EQ(t.instant.size(), 2u);
  // Metadata: per node a name and a sort index, and two per thread:
  // node 0 has worker 0, comm 0, cache; node 1 worker 0, comm 0.
  EXPECT_EQ(t.meta.size(), 2u + 3 * 2 + 2u + 2 * 2);

  EXPECT_EQ(t.metaName("process_name", 1, -1), "node 0 (master)");
  EXPECT_EQ(t.metaName("process_name", 2, -1), "node 1");
  EXPECT_EQ(t.tidOf(1, "worker 0"), 1);
  EXPECT_EQ(t.tidOf(1, "comm 0"), 2);
  EXPECT_EQ(t.tidOf(1, "cache"), 3);
  EXPECT_EQ(t.tidOf(2, "worker 0"), 1);
  EXPECT_EQ(t.tidOf(2, "comm 0"), 2);
  EXPECT_EQ(t.tidOf(2, "cache"), -1);              // no cache events on node 1
  EXPECT_EQ(t.tidOf(1, "links"), -1);              // communicators are modelled
  EXPECT_LT(t.sortIndex(1, 1), t.sortIndex(1, 2)); // workers first
  EXPECT_LT(t.sortIndex(1, 2), t.sortIndex(1, 3));

  // Each task where and when the plan says, in microseconds.
  const char *names[] = {"gen A", "gen B", "a<b&c", "scale", "neg"};
  for (TaskId id = 0; id < 5; ++id) {
    SCOPED_TRACE(names[id]);
    const json::Object *e = t.event(names[id]);
    ASSERT_NE(e, nullptr);
    const TaskPlacement &p = h.plan.placement[id];
    EXPECT_EQ(e->getString("ph"), "X");
    EXPECT_EQ(e->getString("cat"), taskKindName(h.graph.task(id).kind));
    EXPECT_EQ(e->getInteger("pid"), int64_t(p.node) + 1);
    EXPECT_EQ(e->getInteger("tid"), 1);
    EXPECT_DOUBLE_EQ(*e->getNumber("ts"), p.start * 1e6);
    EXPECT_DOUBLE_EQ(*e->getNumber("dur"), (p.finish - p.start) * 1e6);
    EXPECT_EQ(e->getObject("args")->getInteger("id"), int64_t(id));
  }
  const json::Object *gemm = t.event("a<b&c");
  ASSERT_NE(gemm, nullptr);
  EXPECT_EQ(*gemm->getNumber("ts"), 4e6);
  EXPECT_EQ(*gemm->getNumber("dur"), 4e6);
  const json::Object *args = gemm->getObject("args");
  EXPECT_EQ(args->getNumber("m"), 10.0);
  EXPECT_EQ(args->getNumber("n"), 20.0);
  EXPECT_EQ(args->getNumber("k"), 30.0);
  EXPECT_EQ(args->getInteger("inputs"), 2);
  EXPECT_EQ(*t.event("scale")->getNumber("dur"), 0.0);

  // The transfer: a send on node 1's communicator, a receive on node 0's.
  const json::Object *send = t.event("send B[0] -> node 0");
  const json::Object *recv = t.event("recv B[0] <- node 1");
  ASSERT_NE(send, nullptr);
  ASSERT_NE(recv, nullptr);
  EXPECT_EQ(send->getString("cat"), "send");
  EXPECT_EQ(recv->getString("cat"), "recv");
  EXPECT_EQ(send->getInteger("pid"), 2);
  EXPECT_EQ(recv->getInteger("pid"), 1);
  EXPECT_EQ(send->getInteger("tid"), 2);
  EXPECT_EQ(recv->getInteger("tid"), 2);
  for (const json::Object *e : {send, recv}) {
    EXPECT_EQ(*e->getNumber("ts"), 3e6);
    EXPECT_EQ(*e->getNumber("dur"), 1e6);
    EXPECT_EQ(e->getObject("args")->getNumber("bytes"), 800.0);
  }

  // Cache events: instants on node 0's cache thread.
  const json::Object *put = t.event("put B[0]");
  const json::Object *evict = t.event("evict B[0]");
  ASSERT_NE(put, nullptr);
  ASSERT_NE(evict, nullptr);
  EXPECT_EQ(put->getString("s"), "t");
  EXPECT_EQ(put->getInteger("pid"), 1);
  EXPECT_EQ(put->getInteger("tid"), 3);
  EXPECT_EQ(*put->getNumber("ts"), 4e6);
  EXPECT_EQ(*evict->getNumber("ts"), 8e6);
}

TEST(ChromeTrace, IsDeterministicAndEscapes) {
  HandPlan h;
  std::string a = trace(h.graph, h.plan, h.cost);
  EXPECT_EQ(a, trace(h.graph, h.plan, h.cost));
  // The name with a quote and a backslash survives the round trip.
  h.graph = TaskGraph();
  Task odd{"say \"hi\"\\n", TaskKind::Abstract};
  h.graph.addTask(odd);
  Schedule s;
  s.placement = {{0, 0, 0, 1}};
  s.makespan = 1;
  TableCostModel one({{1}}, {});
  ParsedTrace t(trace(h.graph, s, one));
  ASSERT_EQ(t.complete.size(), 1u);
  EXPECT_EQ(t.complete[0]->getString("name"), "say \"hi\"\\n");
  EXPECT_EQ(t.complete[0]->getString("cat"), "task");
}

TEST(ChromeTrace, MatchesAHEFTSchedule) {
  TaskGraph g = wideGraph();
  TableCostModel cost = wideCost();
  SchedulerOptions options;
  Schedule s = scheduleHEFT(g, cost, options);
  ASSERT_EQ(verifySchedule(g, cost, s, options), "");
  ASSERT_GT(s.transfers.size(), 0u); // the work is spread over both nodes
  ParsedTrace t(trace(g, s, cost));
  EXPECT_EQ(t.complete.size(), g.size() + 2 * s.transfers.size());

  std::map<int64_t, const json::Object *> byId;
  size_t sends = 0, recvs = 0;
  for (const json::Object *e : t.complete) {
    llvm::StringRef cat = *e->getString("cat");
    if (cat == "send")
      ++sends;
    else if (cat == "recv")
      ++recvs;
    else
      byId[*e->getObject("args")->getInteger("id")] = e;
  }
  EXPECT_EQ(sends, s.transfers.size());
  EXPECT_EQ(recvs, s.transfers.size());
  ASSERT_EQ(byId.size(), g.size());
  for (TaskId id = 0; id < g.size(); ++id) {
    SCOPED_TRACE(g.task(id).name);
    const json::Object *e = byId[id];
    const TaskPlacement &p = s.placement[id];
    EXPECT_EQ(e->getString("name"), g.task(id).name);
    EXPECT_EQ(e->getInteger("pid"), int64_t(p.node) + 1);
    EXPECT_DOUBLE_EQ(*e->getNumber("ts"), p.start * 1e6);
    EXPECT_DOUBLE_EQ(*e->getNumber("dur"), (p.finish - p.start) * 1e6);
  }
  // The first transfer's two sides, by name, on the right processes.
  const Transfer &x = s.transfers[0];
  std::string data = g.item(x.data).name;
  const json::Object *send =
      t.event("send " + data + " -> node " + std::to_string(x.to));
  const json::Object *recv =
      t.event("recv " + data + " <- node " + std::to_string(x.from));
  ASSERT_NE(send, nullptr);
  ASSERT_NE(recv, nullptr);
  EXPECT_EQ(send->getInteger("pid"), int64_t(x.from) + 1);
  EXPECT_EQ(recv->getInteger("pid"), int64_t(x.to) + 1);
  EXPECT_DOUBLE_EQ(*send->getNumber("ts"), x.start * 1e6);
  EXPECT_DOUBLE_EQ(*recv->getNumber("dur"), (x.finish - x.start) * 1e6);
}

TEST(ChromeTrace, TransfersWithoutCommunicatorsGoToLinks) {
  TaskGraph g = wideGraph();
  TableCostModel cost = wideCost();
  SchedulerOptions plain;
  plain.modelCommunicators = false;
  plain.useTileCache = false;
  Schedule s = scheduleRoundRobin(g, cost, plain);
  ASSERT_EQ(verifySchedule(g, cost, s, plain), "");
  ASSERT_GT(s.transfers.size(), 0u);
  ParsedTrace t(trace(g, s, cost));
  // One event per transfer, on the receiver's "links" thread.
  EXPECT_EQ(t.complete.size(), g.size() + s.transfers.size());
  EXPECT_EQ(t.tidOf(1, "comm 0"), -1);
  EXPECT_EQ(t.tidOf(2, "comm 0"), -1);
  const Transfer &x = s.transfers[0];
  int64_t links = t.tidOf(int64_t(x.to) + 1, "links");
  ASSERT_EQ(links, 2); // after the one worker
  const json::Object *e =
      t.event(g.item(x.data).name + " node " + std::to_string(x.from) +
              " -> node " + std::to_string(x.to));
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->getString("cat"), "transfer");
  EXPECT_EQ(e->getInteger("pid"), int64_t(x.to) + 1);
  EXPECT_EQ(e->getInteger("tid"), links);

  // In the chart: one bar per transfer, in the "transfer" colour.
  std::string chart = svg(g, s, cost);
  // Legend: gemm, reduce, generate, transfer.
  EXPECT_EQ(count(chart, "<rect"), g.size() + s.transfers.size() + 4);
  EXPECT_EQ(count(chart, ">links</text>"), 2u); // both nodes receive
}

TEST(PlanOutput, AGangTaskFillsEveryWorkerOfItsNodes) {
  TaskGraph g;
  Task gen{"gen", TaskKind::Generate, CostClass::Generate};
  DataId a = g.addData(g.addTask(gen), 800, "A");
  Task cosma{"cosma", TaskKind::DistributedGemm, CostClass::Gemm};
  cosma.inputs = {a};
  cosma.gangNodes = {0, 1};
  g.addData(g.addTask(cosma), 800, "C");
  TableCostModel cost({{1, 1}, {3, 3}}, {1, 1});
  Schedule s;
  s.placement = {{0, 0, 0, 1}, {0, 0, 1, 4}};
  s.makespan = 4;
  ASSERT_EQ(verifySchedule(g, cost, s, SchedulerOptions()), "");

  ParsedTrace t(trace(g, s, cost));
  ASSERT_EQ(t.complete.size(), 3u); // gen, and cosma on both nodes
  std::vector<int64_t> pids;
  for (const json::Object *e : t.complete)
    if (e->getString("name") == "cosma") {
      pids.push_back(*e->getInteger("pid"));
      EXPECT_EQ(e->getInteger("tid"), 1);
      EXPECT_EQ(*e->getNumber("ts"), 1e6);
      EXPECT_EQ(*e->getNumber("dur"), 3e6);
      EXPECT_EQ(e->getObject("args")->getInteger("gang_nodes"), 2);
    }
  EXPECT_EQ(pids, (std::vector<int64_t>{1, 2}));

  std::string chart = svg(g, s, cost);
  // 3 bars; legend: distributed gemm, generate.
  EXPECT_EQ(count(chart, "<rect"), 3u + 2u);
  EXPECT_EQ(count(chart, "<title>cosma (distributed_gemm) on every worker "
                         "of nodes 0, 1\n"),
            2u);
  EXPECT_NE(chart.find(">distributed gemm</text>"), std::string::npos);
}

TEST(ChromeTrace, EmptySchedule) {
  TaskGraph g;
  Schedule s;
  TableCostModel none({}, {});
  ParsedTrace t(trace(g, s, none));
  ASSERT_NE(t.root.getAsObject(), nullptr);
  EXPECT_TRUE(t.all.empty());
  EXPECT_EQ(t.root.getAsObject()->getObject("otherData")->getInteger("tasks"),
            0);
}

TEST(GanttSVG, HandPlan) {
  HandPlan h;
  std::string chart = svg(h.graph, h.plan, h.cost, "Hand <plan>");
  EXPECT_EQ(chart.rfind("<svg", 0), 0u);
  EXPECT_EQ(trimmed(chart).size() - trimmed(chart).rfind("</svg>"), 6u);
  EXPECT_EQ(count(chart, "<svg"), 1u);
  EXPECT_EQ(count(chart, "</svg>"), 1u);

  // 5 task bars, 2 transfer sides, and legend swatches for gemm,
  // elementwise, generate, send and recv.
  EXPECT_EQ(count(chart, "<rect"), 5u + 2u + 5u);
  EXPECT_EQ(count(chart, "</rect>"), 7u); // bars carry a <title>
  EXPECT_EQ(count(chart, "<title>"), 7u);
  EXPECT_EQ(count(chart, "<title>"), count(chart, "</title>"));
  EXPECT_EQ(count(chart, "<text"), count(chart, "</text>"));
  EXPECT_EQ(count(chart, "<g"), count(chart, "</g>"));
  for (const char *label :
       {">gemm / gemm-accumulate</text>", ">elementwise</text>",
        ">generate</text>", ">send</text>", ">recv</text>"})
    EXPECT_NE(chart.find(label), std::string::npos) << label;
  EXPECT_EQ(chart.find(">transpose</text>"), std::string::npos);

  // Escaping: the task name and the title.
  EXPECT_NE(chart.find("a&lt;b&amp;c"), std::string::npos);
  EXPECT_EQ(chart.find("a<b&c"), std::string::npos);
  EXPECT_NE(chart.find("Hand &lt;plan&gt;"), std::string::npos);

  // Tooltips: name, kind, start, duration.
  EXPECT_NE(chart.find("<title>a&lt;b&amp;c (gemm) on node 0 (master), "
                       "worker 0\nstart 4 s, duration 4 s</title>"),
            std::string::npos);
  EXPECT_NE(chart.find("<title>send B[0] -&gt; node 0 (send, 800 B)\n"
                       "start 3 s, duration 1 s</title>"),
            std::string::npos);

  // Rows: node labels and one row per worker and communicator.
  EXPECT_NE(chart.find(">node 0 (master)</text>"), std::string::npos);
  EXPECT_NE(chart.find(">node 1</text>"), std::string::npos);
  EXPECT_EQ(count(chart, ">worker 0</text>"), 2u);
  EXPECT_EQ(count(chart, ">comm 0</text>"), 2u);

  // The axis: makespan 8 s, ticks every second from 0 to 8.
  for (int tick = 0; tick <= 8; ++tick)
    EXPECT_NE(chart.find(">" + std::to_string(tick) + "</text>"),
              std::string::npos)
        << tick;
  EXPECT_EQ(chart.find(">9</text>"), std::string::npos);
  EXPECT_NE(chart.find("makespan 8 s"), std::string::npos);

  // The zero-duration task is a 1 px line.
  size_t scale = chart.find("<title>scale (elementwise)");
  ASSERT_NE(scale, std::string::npos);
  size_t rect = chart.rfind("<rect", scale);
  EXPECT_NE(chart.substr(rect, scale - rect).find("width=\"1\""),
            std::string::npos);

  EXPECT_EQ(chart, svg(h.graph, h.plan, h.cost, "Hand <plan>"));
}

TEST(GanttSVG, EmptySchedule) {
  TaskGraph g;
  Schedule s;
  TableCostModel none({}, {});
  std::string chart = svg(g, s, none);
  EXPECT_EQ(chart.rfind("<svg", 0), 0u);
  EXPECT_EQ(trimmed(chart).size() - trimmed(chart).rfind("</svg>"), 6u);
  EXPECT_EQ(count(chart, "<rect"), 0u);
  EXPECT_NE(chart.find("(empty schedule)"), std::string::npos);
  EXPECT_EQ(chart.find("nan"), std::string::npos);
  EXPECT_EQ(chart.find("inf"), std::string::npos);

  // Nodes but nothing placed: the rows, no bars.
  TableCostModel two({{1, 1}}, {});
  chart = svg(g, s, two);
  EXPECT_EQ(count(chart, "<rect"), 0u);
  EXPECT_EQ(count(chart, ">worker 0</text>"), 2u);
  EXPECT_EQ(count(chart, ">comm 0</text>"), 2u);
}

TEST(GanttSVG, NiceTickSteps) {
  EXPECT_DOUBLE_EQ(niceTickStep(8), 1);
  EXPECT_DOUBLE_EQ(niceTickStep(10), 2);
  EXPECT_DOUBLE_EQ(niceTickStep(30), 5);
  EXPECT_DOUBLE_EQ(niceTickStep(41), 10);
  EXPECT_DOUBLE_EQ(niceTickStep(0.37), 0.05);
  EXPECT_DOUBLE_EQ(niceTickStep(1e-4), 2e-5);
  EXPECT_DOUBLE_EQ(niceTickStep(0), 0.2);
  EXPECT_DOUBLE_EQ(niceTickStep(7, 2), 5);
}
