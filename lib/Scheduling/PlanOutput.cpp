//===- PlanOutput.cpp - Plans as traces and Gantt charts --------*- C++ -*-===//
//
// Both views share one layout: per node, its worker rows, then its
// communicator rows, then a "links" row (transfers without communicators)
// and, in the trace only, a "cache" row. A transfer occupies one side per
// communicator (send on the sender, receive on the receiver), or one "links"
// side on the receiver when communicators were not modelled.
//
//===----------------------------------------------------------------------===//

#include "cmm/Scheduling/PlanOutput.h"

#include "cmmrt/ChromeTrace.h"
#include "cmmrt/TraceLayout.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <string>
#include <vector>

using namespace cmm::scheduling;

//===----------------------------------------------------------------------===//
// The shared layout
//===----------------------------------------------------------------------===//

namespace {
struct NodeRows {
  unsigned workers = 0, comms = 0;
  bool links = false, cache = false;
  unsigned commRow(unsigned c) const { return workers + c; }
  unsigned linksRow() const { return workers + comms; }
  unsigned cacheRow() const { return workers + comms + (links ? 1 : 0); }
  /// Rows drawn in the Gantt chart (no cache row there).
  unsigned chartRows() const { return workers + comms + (links ? 1 : 0); }
};

/// One side of a transfer: where it is drawn and as what.
struct TransferSide {
  enum Kind { Send, Recv, Link } kind;
  unsigned node, row;
};

struct Layout {
  std::vector<NodeRows> nodes;
  size_t numTasks = 0; // tasks with a placement

  /// The (node, worker) rows a task occupies: its placement, or for a gang
  /// task every worker of each of its nodes.
  std::vector<std::pair<unsigned, unsigned>>
  taskRows(const Task &task, const TaskPlacement &p) const {
    std::vector<std::pair<unsigned, unsigned>> out;
    if (!task.isGang()) {
      out.push_back({p.node, p.worker});
      return out;
    }
    for (unsigned n : task.gangNodes)
      for (unsigned w = 0; w < std::max(1u, nodes[n].workers); ++w)
        out.push_back({n, w});
    return out;
  }

  std::vector<TransferSide> sides(const Transfer &x) const {
    std::vector<TransferSide> out;
    if (x.sendComm < 0 && x.recvComm < 0) {
      out.push_back({TransferSide::Link, x.to, nodes[x.to].linksRow()});
      return out;
    }
    if (x.sendComm >= 0)
      out.push_back({TransferSide::Send, x.from,
                     nodes[x.from].commRow(unsigned(x.sendComm))});
    else
      out.push_back({TransferSide::Send, x.from, nodes[x.from].linksRow()});
    if (x.recvComm >= 0)
      out.push_back({TransferSide::Recv, x.to,
                     nodes[x.to].commRow(unsigned(x.recvComm))});
    else
      out.push_back({TransferSide::Recv, x.to, nodes[x.to].linksRow()});
    return out;
  }
};

Layout computeLayout(const TaskGraph &graph, const Schedule &schedule,
                     const CostModel &cost) {
  Layout layout;
  layout.numTasks = std::min(graph.size(), schedule.placement.size());
  unsigned numNodes = cost.numNodes();
  for (size_t t = 0; t < layout.numTasks; ++t) {
    numNodes = std::max(numNodes, schedule.placement[t].node + 1);
    for (unsigned n : graph.task(t).gangNodes)
      numNodes = std::max(numNodes, n + 1);
  }
  bool anyComm = false;
  for (const Transfer &x : schedule.transfers) {
    numNodes = std::max({numNodes, x.from + 1, x.to + 1});
    anyComm |= x.sendComm >= 0 || x.recvComm >= 0;
  }
  for (const CacheEvent &e : schedule.cacheEvents)
    numNodes = std::max(numNodes, e.node + 1);

  // Communicator rows, idle ones included (as in the paper's figure), unless
  // the plan has transfers and none uses a communicator: then they were not
  // modelled and the transfers go to "links" rows instead.
  bool showComms = schedule.transfers.empty() || anyComm;
  layout.nodes.resize(numNodes);
  for (unsigned n = 0; n < numNodes; ++n) {
    NodeRows &rows = layout.nodes[n];
    if (n < cost.numNodes()) {
      rows.workers = cost.workers(n);
      rows.comms = showComms ? cost.communicators(n) : 0;
    }
  }
  for (size_t t = 0; t < layout.numTasks; ++t) {
    const TaskPlacement &p = schedule.placement[t];
    NodeRows &rows = layout.nodes[p.node];
    rows.workers = std::max(rows.workers, p.worker + 1);
    for (unsigned n : graph.task(t).gangNodes)
      layout.nodes[n].workers = std::max(layout.nodes[n].workers, 1u);
  }
  for (const Transfer &x : schedule.transfers) {
    if (x.sendComm >= 0)
      layout.nodes[x.from].comms =
          std::max(layout.nodes[x.from].comms, unsigned(x.sendComm) + 1);
    if (x.recvComm >= 0)
      layout.nodes[x.to].comms =
          std::max(layout.nodes[x.to].comms, unsigned(x.recvComm) + 1);
    if (x.sendComm < 0 && x.recvComm < 0) {
      layout.nodes[x.to].links = true;
    } else {
      if (x.sendComm < 0)
        layout.nodes[x.from].links = true;
      if (x.recvComm < 0)
        layout.nodes[x.to].links = true;
    }
  }
  for (const CacheEvent &e : schedule.cacheEvents)
    layout.nodes[e.node].cache = true;
  return layout;
}

std::string nodeName(unsigned node) { return cmmrt::trace::processName(node); }

std::string rowName(const NodeRows &rows, unsigned row) {
  if (row < rows.workers)
    return cmmrt::trace::workerName(row);
  if (row < rows.workers + rows.comms)
    return cmmrt::trace::commName(row - rows.workers);
  if (rows.links && row == rows.linksRow())
    return "links";
  return "cache";
}

std::string taskName(const TaskGraph &graph, TaskId t) {
  const std::string &name = graph.task(t).name;
  return name.empty() ? "t" + std::to_string(t) : name;
}

std::string dataName(const TaskGraph &graph, DataId d) {
  if (d < graph.data().size() && !graph.item(d).name.empty())
    return graph.item(d).name;
  return "d" + std::to_string(d);
}

double dataBytes(const TaskGraph &graph, DataId d) {
  return d < graph.data().size() ? graph.item(d).bytes : 0.0;
}

std::string transferName(const TaskGraph &graph, const Transfer &x,
                         TransferSide::Kind kind) {
  std::string data = dataName(graph, x.data);
  switch (kind) {
  case TransferSide::Send:
    return "send " + data + " -> node " + std::to_string(x.to);
  case TransferSide::Recv:
    return "recv " + data + " <- node " + std::to_string(x.from);
  case TransferSide::Link:
    break;
  }
  return data + " node " + std::to_string(x.from) + " -> node " +
         std::to_string(x.to);
}

const char *sideCategory(TransferSide::Kind kind) {
  switch (kind) {
  case TransferSide::Send:
    return "send";
  case TransferSide::Recv:
    return "recv";
  case TransferSide::Link:
    break;
  }
  return "transfer";
}

/// The latest time anything in the plan happens.
double endTime(const Layout &layout, const Schedule &schedule) {
  double end = std::max(0.0, schedule.makespan);
  for (size_t t = 0; t < layout.numTasks; ++t)
    end = std::max(end, schedule.placement[t].finish);
  for (const Transfer &x : schedule.transfers)
    end = std::max(end, x.finish);
  for (const CacheEvent &e : schedule.cacheEvents)
    end = std::max(end, e.time);
  return end;
}
} // namespace

//===----------------------------------------------------------------------===//
// Chrome trace
//===----------------------------------------------------------------------===//

void cmm::scheduling::writeChromeTrace(const TaskGraph &graph,
                                       const Schedule &schedule,
                                       const CostModel &cost,
                                       llvm::raw_ostream &os,
                                       llvm::StringRef label) {
  Layout layout = computeLayout(graph, schedule, cost);
  // The numbering measured traces use too (cmmrt/TraceLayout.h).
  auto pid = [](unsigned node) { return cmmrt::trace::processId(node); };
  auto tid = [](unsigned row) { return cmmrt::trace::threadId(row); };

  namespace trace = cmmrt::trace;
  trace::EventList events;
  // Names and order of the nodes and their rows. On the first row's tid:
  // tid 0 is special in Perfetto.
  for (unsigned n = 0; n < layout.nodes.size(); ++n) {
    const NodeRows &rows = layout.nodes[n];
    events.metadata("process_name", pid(n), tid(0),
                    trace::JsonObject().string("name", nodeName(n)));
    events.metadata("process_sort_index", pid(n), tid(0),
                    trace::JsonObject().number("sort_index", n));
    unsigned numRows = rows.chartRows() + (rows.cache ? 1 : 0);
    for (unsigned r = 0; r < numRows; ++r) {
      events.metadata("thread_name", pid(n), tid(r),
                      trace::JsonObject().string("name", rowName(rows, r)));
      events.metadata("thread_sort_index", pid(n), tid(r),
                      trace::JsonObject().number("sort_index", r));
    }
  }

  for (TaskId t = 0; t < layout.numTasks; ++t) {
    const Task &task = graph.task(t);
    const TaskPlacement &p = schedule.placement[t];
    trace::JsonObject args;
    args.number("id", t)
        .number("m", task.m)
        .number("n", task.n)
        .number("k", task.k)
        .number("inputs", task.inputs.size())
        .number("outputs", task.outputs.size());
    if (task.isGang())
      args.number("gang_nodes", task.gangNodes.size());
    for (const auto &row : layout.taskRows(task, p))
      events.complete(taskName(graph, t), taskKindName(task.kind),
                      pid(row.first), tid(row.second), p.start,
                      p.finish - p.start, args);
  }

  for (const Transfer &x : schedule.transfers)
    for (const TransferSide &side : layout.sides(x))
      events.complete(transferName(graph, x, side.kind),
                      sideCategory(side.kind), pid(side.node), tid(side.row),
                      x.start, x.finish - x.start,
                      trace::JsonObject()
                          .number("bytes", dataBytes(graph, x.data))
                          .number("data", x.data)
                          .number("from", x.from)
                          .number("to", x.to));

  for (const CacheEvent &e : schedule.cacheEvents) {
    bool put = e.kind == CacheEvent::Put;
    events.instant((put ? "put " : "evict ") + dataName(graph, e.data), "cache",
                   pid(e.node), tid(layout.nodes[e.node].cacheRow()), e.time,
                   trace::JsonObject()
                       .number("bytes", dataBytes(graph, e.data))
                       .number("data", e.data));
  }

  trace::JsonObject other;
  if (!label.empty())
    other.string("label", label);
  other.number("makespan_s", schedule.makespan)
      .number("nodes", layout.nodes.size())
      .number("tasks", layout.numTasks)
      .number("transfers", schedule.transfers.size())
      .number("bytes_moved", schedule.bytesMoved)
      .number("cache_hits", schedule.cacheHits);
  os << trace::traceDocument(events, other);
}

//===----------------------------------------------------------------------===//
// Gantt chart
//===----------------------------------------------------------------------===//

double cmm::scheduling::niceTickStep(double span, unsigned maxTicks) {
  if (!(span > 0) || !std::isfinite(span))
    span = 1;
  maxTicks = std::max(1u, maxTicks);
  double raw = span / maxTicks;
  double step = std::pow(10.0, std::floor(std::log10(raw)));
  // The smallest of 1, 2, 5 x 10^k at least `raw` (with a little slack for
  // rounding, so a span of exactly 8 steps keeps its step).
  for (;;) {
    for (double f : {1.0, 2.0, 5.0})
      if (f * step >= raw * (1 - 1e-9))
        return f * step;
    step *= 10;
  }
}

namespace {
struct Style {
  const char *label;
  const char *fill;
  const char *text; // label colour on the fill
};

/// The palette, in legend order. Computations warm/cool, communication green
/// (send) and orange (recv), as in the paper's figure.
enum StyleIndex {
  SGemm,
  SDistributedGemm,
  SElementwise,
  STranspose,
  SReduce,
  SGenerate,
  SLoad,
  SGather,
  SSolve,
  SOther,
  SSend,
  SRecv,
  STransfer,
  kNumStyles
};

const Style kStyles[kNumStyles] = {
    {"gemm / gemm-accumulate", "#d62728", "#ffffff"},
    {"distributed gemm", "#7b0c0c", "#ffffff"},
    {"elementwise", "#1f77b4", "#ffffff"},
    {"transpose", "#9467bd", "#ffffff"},
    {"reduce", "#8c564b", "#ffffff"},
    {"generate", "#7f7f7f", "#ffffff"},
    {"load", "#bcbd22", "#000000"},
    {"gather", "#17becf", "#000000"},
    {"solve", "#e377c2", "#000000"},
    {"other", "#c7c7c7", "#000000"},
    {"send", "#2ca02c", "#ffffff"},
    {"recv", "#ff7f0e", "#000000"},
    {"transfer", "#98df8a", "#000000"},
};

StyleIndex styleOf(TaskKind kind) {
  switch (kind) {
  case TaskKind::Gemm:
  case TaskKind::GemmAcc:
    return SGemm;
  case TaskKind::Elementwise:
    return SElementwise;
  case TaskKind::Transpose:
    return STranspose;
  case TaskKind::Reduce:
    return SReduce;
  case TaskKind::Generate:
    return SGenerate;
  case TaskKind::Load:
  case TaskKind::Merge:
    return SLoad;
  case TaskKind::Gather:
    return SGather;
  case TaskKind::Solve:
  case TaskKind::Potrf:
  case TaskKind::Trsm:
  case TaskKind::Symmetry:
    return SSolve;
  case TaskKind::Syrk:
  case TaskKind::GemmSub:
    return SGemm;
  case TaskKind::DistributedGemm:
    return SDistributedGemm;
  case TaskKind::Abstract:
    break;
  }
  return SOther;
}

StyleIndex styleOf(TransferSide::Kind kind) {
  switch (kind) {
  case TransferSide::Send:
    return SSend;
  case TransferSide::Recv:
    return SRecv;
  case TransferSide::Link:
    break;
  }
  return STransfer;
}

std::string xmlEscape(llvm::StringRef s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\'':
      out += "&apos;";
      break;
    default:
      // Control characters other than tab and newline are not XML.
      if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n')
        out += ' ';
      else
        out += c;
    }
  }
  return out;
}

/// A coordinate: two decimals, no "-0".
std::string coord(double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.2f", v);
  std::string s = buffer;
  if (s == "-0.00")
    s = "0.00";
  // Trim trailing zeros: "12.50" -> "12.5", "12.00" -> "12".
  while (!s.empty() && s.back() == '0')
    s.pop_back();
  if (!s.empty() && s.back() == '.')
    s.pop_back();
  return s;
}

std::string formatNumber(double v, const char *format) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), format, v);
  return buffer;
}

/// Seconds for a reader: "1.25 s", "3.2 ms", "40 us".
std::string formatSeconds(double s) {
  double a = std::fabs(s);
  if (a == 0)
    return "0 s";
  if (a >= 1)
    return formatNumber(s, "%.4g s");
  if (a >= 1e-3)
    return formatNumber(s * 1e3, "%.4g ms");
  return formatNumber(s * 1e6, "%.4g us");
}

std::string formatBytes(double b) {
  const char *units[] = {"B", "KB", "MB", "GB", "TB"};
  unsigned u = 0;
  while (std::fabs(b) >= 1000 && u + 1 < std::size(units)) {
    b /= 1000;
    ++u;
  }
  return formatNumber(b, u ? "%.3g " : "%.0f ") + units[u];
}

/// A rough width of `text` in a sans-serif font of `size` px.
double textWidth(llvm::StringRef text, double size) {
  return 0.58 * size * double(text.size());
}

// Geometry, in px.
constexpr double kWidth = 1280;
constexpr double kPlotLeft = 210, kPlotRight = kWidth - 40;
constexpr double kRowsTop = 76;
constexpr double kRowHeight = 16, kBarInset = 1.5;
constexpr double kNodeGap = 10;
constexpr double kBarFont = 9, kLabelFont = 11;
} // namespace

void cmm::scheduling::writeGanttSVG(const TaskGraph &graph,
                                    const Schedule &schedule,
                                    const CostModel &cost,
                                    llvm::raw_ostream &os,
                                    llvm::StringRef title) {
  Layout layout = computeLayout(graph, schedule, cost);
  double end = endTime(layout, schedule);
  // The axis ends just after the plan (not at the next tick, which could
  // waste a fifth of the width); ticks every `step` up to it.
  double axisEnd = end > 0 ? end * 1.01 : 1.0;
  double step = niceTickStep(end > 0 ? end : 1.0);
  double scale = (kPlotRight - kPlotLeft) / axisEnd;
  auto xOf = [&](double t) { return kPlotLeft + t * scale; };

  // Vertical positions: each node's first row, then the axis and legend.
  std::vector<double> nodeTop(layout.nodes.size());
  double y = kRowsTop;
  for (unsigned n = 0; n < layout.nodes.size(); ++n) {
    nodeTop[n] = y;
    y += std::max(1u, layout.nodes[n].chartRows()) * kRowHeight + kNodeGap;
  }
  double rowsBottom =
      layout.nodes.empty() ? kRowsTop + kRowHeight : y - kNodeGap;
  auto rowTop = [&](unsigned node, unsigned row) {
    return nodeTop[node] + row * kRowHeight;
  };
  double axisY = rowsBottom + 6;

  // Colours in use, for the legend.
  bool used[kNumStyles] = {};
  for (TaskId t = 0; t < layout.numTasks; ++t)
    used[styleOf(graph.task(t).kind)] = true;
  for (const Transfer &x : schedule.transfers)
    for (const TransferSide &side : layout.sides(x))
      used[styleOf(side.kind)] = true;

  // Legend flow: rows of swatches under the axis title.
  struct LegendItem {
    StyleIndex style;
    double x, y;
  };
  std::vector<LegendItem> legend;
  double legendTop = axisY + 44;
  {
    double lx = kPlotLeft, ly = legendTop;
    for (unsigned s = 0; s < kNumStyles; ++s) {
      if (!used[s])
        continue;
      double w = 12 + 5 + textWidth(kStyles[s].label, kLabelFont) + 18;
      if (lx + w > kWidth - 10 && lx > kPlotLeft) {
        lx = kPlotLeft;
        ly += 18;
      }
      legend.push_back({StyleIndex(s), lx, ly});
      lx += w;
    }
  }
  double height = (legend.empty() ? legendTop : legend.back().y + 12) + 16;

  std::string heading = title.empty() ? "Schedule" : title.str();
  std::string summary =
      "makespan " + formatSeconds(schedule.makespan) + "  \xC2\xB7  " +
      std::to_string(layout.numTasks) + " tasks on " +
      std::to_string(layout.nodes.size()) + " node" +
      (layout.nodes.size() == 1 ? "" : "s") + "  \xC2\xB7  " +
      std::to_string(schedule.transfers.size()) + " transfer" +
      (schedule.transfers.size() == 1 ? "" : "s") + " (" +
      formatBytes(schedule.bytesMoved) + ")";

  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << coord(kWidth)
     << "\" height=\"" << coord(height) << "\" viewBox=\"0 0 " << coord(kWidth)
     << " " << coord(height)
     << "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n";
  os << "<path d=\"M0 0H" << coord(kWidth) << "V" << coord(height)
     << "H0Z\" fill=\"#ffffff\"/>\n";
  os << "<text x=\"10\" y=\"26\" font-size=\"17\" font-weight=\"bold\">"
     << xmlEscape(heading) << "</text>\n";
  os << "<text x=\"10\" y=\"46\" font-size=\"12\" fill=\"#333333\">"
     << xmlEscape(summary) << "</text>\n";

  // Node bands, node and row labels.
  os << "<g font-size=\"" << coord(kLabelFont) << "\">\n";
  for (unsigned n = 0; n < layout.nodes.size(); ++n) {
    const NodeRows &rows = layout.nodes[n];
    double top = nodeTop[n] - 2;
    double bottom =
        nodeTop[n] + std::max(1u, rows.chartRows()) * kRowHeight + 2;
    os << "<path d=\"M4 " << coord(top) << "H" << coord(kPlotRight + 4) << "V"
       << coord(bottom) << "H4Z\" fill=\"" << (n % 2 ? "#f4f4f4" : "#ebebeb")
       << "\"/>\n";
    os << "<text x=\"10\" y=\"" << coord(nodeTop[n] + kRowHeight - 4)
       << "\" font-weight=\"bold\">" << xmlEscape(nodeName(n)) << "</text>\n";
    for (unsigned r = 0; r < rows.chartRows(); ++r)
      os << "<text x=\"" << coord(kPlotLeft - 8) << "\" y=\""
         << coord(rowTop(n, r) + kRowHeight - 4)
         << "\" text-anchor=\"end\" fill=\"#444444\">"
         << xmlEscape(rowName(rows, r)) << "</text>\n";
  }
  if (layout.nodes.empty())
    os << "<text x=\"" << coord(kPlotLeft + 8) << "\" y=\""
       << coord(kRowsTop + kRowHeight - 4)
       << "\" fill=\"#666666\">(empty schedule)</text>\n";
  os << "</g>\n";

  // Grid and axis.
  unsigned numTicks = unsigned(std::floor(axisEnd / step + 1e-9));
  int decimals = std::max(0, -int(std::floor(std::log10(step) + 1e-9)));
  os << "<g stroke=\"#cccccc\" stroke-width=\"0.5\">\n";
  for (unsigned i = 0; i <= numTicks; ++i)
    os << "<line x1=\"" << coord(xOf(i * step)) << "\" y1=\""
       << coord(kRowsTop - 4) << "\" x2=\"" << coord(xOf(i * step))
       << "\" y2=\"" << coord(axisY) << "\"/>\n";
  os << "</g>\n";
  os << "<g stroke=\"#000000\" stroke-width=\"1\">\n";
  os << "<line x1=\"" << coord(kPlotLeft) << "\" y1=\"" << coord(axisY)
     << "\" x2=\"" << coord(kPlotRight) << "\" y2=\"" << coord(axisY)
     << "\"/>\n";
  for (unsigned i = 0; i <= numTicks; ++i)
    os << "<line x1=\"" << coord(xOf(i * step)) << "\" y1=\"" << coord(axisY)
       << "\" x2=\"" << coord(xOf(i * step)) << "\" y2=\"" << coord(axisY + 5)
       << "\"/>\n";
  os << "</g>\n";
  os << "<g font-size=\"" << coord(kLabelFont)
     << "\" text-anchor=\"middle\">\n";
  std::string tickFormat = "%." + std::to_string(decimals) + "f";
  for (unsigned i = 0; i <= numTicks; ++i)
    os << "<text x=\"" << coord(xOf(i * step)) << "\" y=\"" << coord(axisY + 18)
       << "\">" << formatNumber(i * step, tickFormat.c_str()) << "</text>\n";
  os << "<text x=\"" << coord((kPlotLeft + kPlotRight) / 2) << "\" y=\""
     << coord(axisY + 34) << "\">time (s)</text>\n";
  os << "</g>\n";

  // Bars: tasks in id order, then transfers in plan order.
  auto bar = [&](double start, double finish, double top, StyleIndex style,
                 const std::string &name, const std::string &tooltip) {
    double x = xOf(start);
    double w = std::max(0.0, finish - start) * scale;
    if (w < 1)
      w = 1; // zero-duration: a 1 px line
    double h = kRowHeight - 2 * kBarInset;
    os << "<rect x=\"" << coord(x) << "\" y=\"" << coord(top + kBarInset)
       << "\" width=\"" << coord(w) << "\" height=\"" << coord(h)
       << "\" fill=\"" << kStyles[style].fill << "\"";
    if (w >= 3)
      os << " stroke=\"#ffffff\" stroke-width=\"0.5\"";
    os << "><title>" << xmlEscape(tooltip) << "</title></rect>\n";
    if (w >= textWidth(name, kBarFont) + 6)
      os << "<text x=\"" << coord(x + 3) << "\" y=\""
         << coord(top + kRowHeight - 4.5) << "\" font-size=\""
         << coord(kBarFont) << "\" fill=\"" << kStyles[style].text
         << "\" pointer-events=\"none\">" << xmlEscape(name) << "</text>\n";
  };
  os << "<g>\n";
  for (TaskId t = 0; t < layout.numTasks; ++t) {
    const Task &task = graph.task(t);
    const TaskPlacement &p = schedule.placement[t];
    std::string name = taskName(graph, t);
    std::string where;
    if (task.isGang()) {
      where = "every worker of node";
      where += task.gangNodes.size() == 1 ? " " : "s ";
      for (size_t i = 0; i < task.gangNodes.size(); ++i)
        where += (i ? ", " : "") + std::to_string(task.gangNodes[i]);
    } else {
      where = nodeName(p.node) + ", worker " + std::to_string(p.worker);
    }
    std::string tooltip = name + " (" + taskKindName(task.kind) + ") on " +
                          where + "\nstart " + formatSeconds(p.start) +
                          ", duration " + formatSeconds(p.finish - p.start);
    for (auto [node, worker] : layout.taskRows(task, p))
      bar(p.start, p.finish, rowTop(node, worker), styleOf(task.kind), name,
          tooltip);
  }
  for (const Transfer &x : schedule.transfers)
    for (const TransferSide &side : layout.sides(x)) {
      std::string name = transferName(graph, x, side.kind);
      std::string tooltip = name + " (" + sideCategory(side.kind) + ", " +
                            formatBytes(dataBytes(graph, x.data)) +
                            ")\nstart " + formatSeconds(x.start) +
                            ", duration " + formatSeconds(x.finish - x.start);
      bar(x.start, x.finish, rowTop(side.node, side.row), styleOf(side.kind),
          name, tooltip);
    }
  os << "</g>\n";

  // The makespan.
  if (schedule.makespan > 0) {
    double mx = xOf(schedule.makespan);
    std::string text = "makespan " + formatSeconds(schedule.makespan);
    bool left = mx + textWidth(text, 10) + 4 > kWidth - 4;
    os << "<line x1=\"" << coord(mx) << "\" y1=\"" << coord(kRowsTop - 14)
       << "\" x2=\"" << coord(mx) << "\" y2=\"" << coord(axisY)
       << "\" stroke=\"#000000\" stroke-width=\"1\" "
          "stroke-dasharray=\"4 3\"/>\n";
    os << "<text x=\"" << coord(left ? mx - 4 : mx + 4) << "\" y=\""
       << coord(kRowsTop - 6) << "\" font-size=\"10\""
       << (left ? " text-anchor=\"end\"" : "") << ">" << xmlEscape(text)
       << "</text>\n";
  }

  // Legend.
  os << "<g font-size=\"" << coord(kLabelFont) << "\">\n";
  for (const LegendItem &item : legend) {
    os << "<rect x=\"" << coord(item.x) << "\" y=\"" << coord(item.y)
       << "\" width=\"12\" height=\"12\" fill=\"" << kStyles[item.style].fill
       << "\"/>\n";
    os << "<text x=\"" << coord(item.x + 17) << "\" y=\"" << coord(item.y + 10)
       << "\">" << kStyles[item.style].label << "</text>\n";
  }
  os << "</g>\n";
  os << "</svg>\n";
}
