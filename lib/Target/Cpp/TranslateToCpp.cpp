//===- TranslateToCpp.cpp - Scheduled task graphs to C++/MPI ----*- C++ -*-===//

#include "cmm/Target/Cpp.h"

#include "cmm/Dialect/Cmm/CmmDialect.h"
#include "cmm/Dialect/Cmm/RuntimeMapping.h"
#include "cmm/Dialect/TaskGraph/TaskGraphDialect.h"
#include "cmm/InitAll.h"
#include "cmm/Planning/MachineAttr.h"
#include "cmm/Planning/Segments.h"
#include "cmm/Scheduling/GangGemm.h"
#include "cmmrt/Fused.h"
#include "cmmrt/Numbers.h"
#include "cmmrt/VectorMath.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>

using namespace mlir;
using namespace cmm;

namespace {

/// A C++ string literal.
std::string quote(StringRef text) {
  std::string out = "\"";
  for (unsigned char ch : text) {
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += static_cast<char>(ch);
    } else if (ch < 0x20 || ch >= 0x7f) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\%03o", ch);
      out += buffer;
    } else {
      out += static_cast<char>(ch);
    }
  }
  return out + "\"";
}

/// A C++ double literal that reads back as `v` exactly (the non-finite
/// ones are Plan.h's constants: a program needs no <cmath>).
std::string literal(double v) {
  if (std::isnan(v))
    return "cmmrt::plan::kNaN";
  if (std::isinf(v))
    return v > 0 ? "cmmrt::plan::kInfinity" : "-cmmrt::plan::kInfinity";
  std::string s = cmmrt::shortest(v);
  if (s.find_first_of(".e") == std::string::npos)
    s += ".0";
  return s;
}

std::optional<FileLineColLoc> fileLoc(Location loc) {
  std::optional<FileLineColLoc> found;
  loc->walk([&](Location l) {
    if (auto f = dyn_cast<FileLineColLoc>(l)) {
      found = f;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

struct SlotInfo {
  int64_t node, rows, cols, row0, col0;
  int uses = 0;
};

struct TaskInfo {
  tg::TaskKind kind;
  int64_t op, node, worker;
  std::vector<int> inputs;
  int firstOutput, numOutputs;
  std::string name;
  double start, finish;
  size_t order;       // in the graph
  int inputsA = 0;    // distributed_gemm: the first inputs are tiles of A
  tg::CostClass cost; // for the program's --stats by class
  double m = 1, n = 1, k = 1; // its polynomial's parameters (the trace)
  int firstGangNode = 0, numGangNodes = 0; // distributed_gemm: its gang
  double touch = 0; // predicted first-touch seconds (--stats by class)
};

struct TransferInfo {
  int source, target;
  int64_t from, to, sendComm, recvComm;
  double start, finish;
  size_t order;
  double touch = 0;
};

/// The C++ spelling of a task kind in generated programs (TaskKinds.def).
const char *kindName(tg::TaskKind kind) {
  static const char *const kEnumerators[] = {
#define CMM_TASK_KIND(Enumerator, name) #Enumerator,
#include "cmmrt/TaskKinds.def"
  };
  return kEnumerators[static_cast<unsigned>(kind)];
}

/// The C++ spelling of a cost class in generated programs (CostClasses.def).
const char *costClassEnumerator(tg::CostClass cost) {
  static const char *const kEnumerators[] = {
#define CMM_COST_CLASS(Enumerator, name, fallback) #Enumerator,
#include "cmmrt/CostClasses.def"
  };
  return kEnumerators[static_cast<unsigned>(cost)];
}

/// One entry of the op table: the runtime's OpCode and its parameters.
/// The C++ spelling of an op code in generated programs (OpCodes.def).
const char *opCodeEnumerator(cmmrt::plan::OpCode code) {
  static const char *const kEnumerators[] = {
#define CMM_OP(Enumerator, name) #Enumerator,
#include "cmmrt/OpCodes.def"
  };
  return kEnumerators[static_cast<unsigned>(code)];
}

struct OpEntry {
  std::string code;
  int64_t rows = 0, cols = 0, inRows = 0, inCols = 0;
  double scalar = 0;
  int64_t a = 0, b = 0;
  std::string text;
  std::string data; // name of the constant's array
  int line = 0, column = 0;
  std::string kernel; // fused: its generated function
};

/// The MapFn enumerator of a vector-math step, as C++.
std::string mapFnEnumerator(cmmrt::MapFn fn) {
  static const char *const kEnumerators[] = {
#define CMM_MAP(Enumerator, name) #Enumerator,
#include "cmmrt/ElementFunctions.def"
  };
  return std::string("cmmrt::MapFn::") + kEnumerators[unsigned(fn)];
}

/// The C++ function `name` of a fused kernel (cmmrt::fused::KernelFn):
/// the runtime's walk over the result tile (cmmrt::fused::forEachChunk)
/// calling `name`Chunk, the loop nest over one chunk. Steps run in runs of
/// inline arithmetic, one `omp simd` loop per run, their values in registers,
/// split by the SLEEF steps (exp, log, sin, cos, tanh), which run over the
/// whole chunk. A value crosses between runs through a chunk-sized array (L1);
/// nothing is stored per tile but the result, which the last run writes.
std::string emitFusedKernel(const std::string &name,
                            const cmmrt::fused::Kernel &k,
                            const std::string &text) {
  using cmmrt::fused::Arg;
  using cmmrt::fused::StepFn;
  const int steps = int(k.steps.size());
  auto isVector = [&](int s) {
    return k.steps[s].fn == StepFn::Map &&
           cmmrt::isVectorMathFunction(k.steps[s].map);
  };
  // Runs: a vector step alone, else a maximal run of inline steps.
  std::vector<int> runOf(steps);
  int runs = 0;
  for (int s = 0; s < steps; ++s)
    runOf[s] = (s == 0 || isVector(s) || isVector(s - 1)) ? runs++ : runs - 1;
  const bool resultInLastRun =
      k.result.kind == Arg::Step && runOf[k.result.index] == runs - 1;
  // In a chunk-sized array: what vectorMap writes, what another run reads.
  std::vector<bool> stored(steps, false);
  for (int s = 0; s < steps; ++s) {
    stored[s] = stored[s] || isVector(s);
    for (int a = 0; a < k.steps[s].arity(); ++a) {
      const Arg &arg = k.steps[s].args[a];
      if (arg.kind == Arg::Step && runOf[arg.index] != runOf[s])
        stored[arg.index] = true;
    }
  }
  if (k.result.kind == Arg::Step)
    stored[k.result.index] = true;
  auto array = [&](int s) {
    return resultInLastRun && s == k.result.index ? std::string("y")
                                                  : "t" + std::to_string(s);
  };
  std::vector<bool> usesInput(k.numInputs, false);
  for (const cmmrt::fused::Step &st : k.steps)
    for (int a = 0; a < st.arity(); ++a)
      if (st.args[a].kind == Arg::Input)
        usesInput[st.args[a].index] = true;
  if (k.result.kind == Arg::Input)
    usesInput[k.result.index] = true;

  std::string out;
  llvm::raw_string_ostream os(out);
  os << "// " << text << "\nvoid " << name
     << "Chunk(int64_t n, const double *const *x, double *y) {\n";
  for (int s = 0; s < steps; ++s)
    if (stored[s] && array(s) != "y")
      os << "  alignas(64) double t" << s << "[cmmrt::fused::kChunk];\n";
  for (int i = 0; i < k.numInputs; ++i)
    if (usesInput[i])
      os << "  const double *x" << i << " = x[" << i << "];\n";
  // An argument inside a run's loop (`e` the element).
  auto element = [&](const Arg &a, int run) -> std::string {
    switch (a.kind) {
    case Arg::Input:
      return "x" + std::to_string(a.index) + "[e]";
    case Arg::Constant:
      return literal(a.value);
    case Arg::Step:
      return runOf[a.index] == run && !isVector(a.index)
                 ? "v" + std::to_string(a.index)
                 : array(a.index) + "[e]";
    }
    return "";
  };
  for (int s = 0; s < steps;) {
    const int run = runOf[s];
    if (isVector(s)) {
      const Arg &a = k.steps[s].args[0];
      std::string from = a.kind == Arg::Input  ? "x" + std::to_string(a.index)
                         : a.kind == Arg::Step ? array(a.index)
                                               : "c" + std::to_string(s);
      if (a.kind == Arg::Constant)
        os << "  double c" << s << "[cmmrt::fused::kChunk];\n"
           << "  for (int64_t e = 0; e < n; ++e)\n    c" << s
           << "[e] = " << literal(a.value) << ";\n";
      os << "  cmmrt::vectorMap(" << mapFnEnumerator(k.steps[s].map) << ", "
         << from << ", " << array(s) << ", n);\n";
      ++s;
      continue;
    }
    os << "#pragma omp simd\n  for (int64_t e = 0; e < n; ++e) {\n";
    for (; s < steps && runOf[s] == run; ++s) {
      const cmmrt::fused::Step &st = k.steps[s];
      os << "    const double v" << s
         << " = cmmrt::scalar::" << cmmrt::fused::functionName(st) << "("
         << element(st.args[0], run);
      if (st.arity() == 2)
        os << ", " << element(st.args[1], run);
      os << ");\n";
      if (stored[s])
        os << "    " << array(s) << "[e] = v" << s << ";\n";
    }
    os << "  }\n";
  }
  if (!resultInLastRun)
    os << "#pragma omp simd\n  for (int64_t e = 0; e < n; ++e)\n"
       << "    y[e] = " << element(k.result, -1) << ";\n";
  os << "}\n\nvoid " << name
     << "(int64_t rows, int64_t cols, const cmmrt::fused::Operand *in, "
        "double *out) {\n  cmmrt::fused::forEachChunk(rows, cols, in, "
     << k.numInputs << ", out, " << name << "Chunk);\n}\n";
  return out;
}

class CppEmitter {
public:
  CppEmitter(tg::GraphOp graph, const scheduling::MachineModel &machine,
             raw_ostream &os)
      : graph(graph), machine(machine), os(os) {}
  /// A one-plan program: its tables and main.
  LogicalResult run();

  /// A segment of a program with run-time control flow (Segments.h): its
  /// imports and exports name the environment values `imports[id]` and
  /// `exports[id]` (cmmrt/Program.h).
  std::vector<int64_t> imports, exports;
  LogicalResult collect() {
    return failure(failed(collectOps()) || failed(collectGraph()));
  }
  /// The start of the file: what it is, its includes, `namespace {`.
  void emitHeader(bool program, bool anyKernels);
  /// The plan's tables, ending in `const Plan kPlan`.
  void emitTables();
  bool hasKernels() const { return !kernels.empty(); }
  double makespan() {
    return graph.getMakespan() ? graph.getMakespan()->convertToDouble() : 0.0;
  }
  const std::string &source() const { return sourceFile; }

private:
  LogicalResult collectOps();
  LogicalResult collectGraph();
  void emit();

  tg::GraphOp graph;
  const scheduling::MachineModel &machine;
  raw_ostream &os;
  std::string sourceFile = "<unknown>";
  std::vector<OpEntry> ops;
  llvm::DenseMap<StringAttr, int> opIndex; // of each cmmtg.op
  std::vector<std::string> constants;      // definitions of constant arrays
  std::vector<std::string> kernels;        // of the fused ops
  std::map<std::string, std::string> kernelNames; // text -> function
  std::vector<int> outputs;
  std::vector<SlotInfo> slots;
  std::vector<TaskInfo> tasks;
  std::vector<TransferInfo> transfers;
  std::vector<int64_t> workers, threads, communicators;
  std::vector<int64_t> gangNodes; // the distributed products' gangs
};

/// The op table: the graph's op declarations, in program order.
LogicalResult CppEmitter::collectOps() {
  using cmmrt::plan::OpCode;
  for (auto decl : graph.getBodyBlock().getOps<tg::OpDeclOp>()) {
    int index = ops.size();
    opIndex[decl.getSymNameAttr()] = index;
    OpEntry e;
    OpCode code = decl.getOpCode();
    e.code = opCodeEnumerator(code);
    if (auto loc = fileLoc(decl.getLoc())) {
      e.line = loc->getLine();
      e.column = loc->getColumn();
      if (sourceFile == "<unknown>")
        sourceFile = loc->getFilename().str();
    }
    e.rows = decl.getRows();
    e.cols = decl.getCols();
    e.inRows = decl.getInRows().value_or(0);
    e.inCols = decl.getInCols().value_or(0);
    if (auto value = decl.getValue())
      e.scalar = value->convertToDouble();
    if (code == OpCode::Import || code == OpCode::Export) {
      const std::vector<int64_t> &ids =
          code == OpCode::Import ? imports : exports;
      if (uint64_t(*decl.getId()) >= ids.size())
        return decl.emitOpError("is not an argument or result of its segment's "
                                "call in @main");
      e.a = ids[*decl.getId()];
    } else if (code == OpCode::Rand || code == OpCode::Randn) {
      e.a = *decl.getSeed();
      e.b = *decl.getId();
    } else if (code == OpCode::Range) {
      e.a = *decl.getFirst();
      e.b = *decl.getLast();
    } else if (code == OpCode::Matmul) {
      e.a = (decl.getTransposeLhs() ? cmmrt::plan::kTransposeLhs : 0) |
            (decl.getTransposeRhs() ? cmmrt::plan::kTransposeRhs : 0);
    } else if (code == OpCode::Fused) {
      cmmrt::fused::Kernel kernel;
      std::string error;
      if (!cmmrt::fused::parse(decl.getKernel()->str(),
                               int32_t(*decl.getInputs()), kernel, error))
        return decl.emitOpError("kernel: ") << error; // the verifier's check
      e.a = *decl.getInputs();
      e.text = decl.getKernel()->str();
      // Ops with one kernel text share its function (a traced loop
      // repeats its kernels once per iteration).
      auto [it, fresh] = kernelNames.try_emplace(
          e.text + "|" + std::to_string(e.a), "fused" + std::to_string(index));
      e.kernel = it->second;
      if (fresh)
        kernels.push_back(emitFusedKernel(e.kernel, kernel, e.text));
    } else if (code == OpCode::Solve) {
      e.a = decl.getMethod().value_or(0); // cmmrt::SolveMethod
      if (auto replaces = decl.getReplaces()) // cmmrt::restateAs
        e.text = replaces->str();
    } else if (code == OpCode::Chol || code == OpCode::Eig ||
               code == OpCode::EigVals) {
      e.a = decl.getSymmetric() ? 1 : 0; // no run-time symmetry test
    } else if (code == OpCode::Slice || code == OpCode::Insert) {
      e.a = *decl.getRow();
      e.b = *decl.getCol();
    } else if (code == OpCode::Print) {
      e.a = decl.getDisplay() ? 1 : 0;
    } else if (auto dim = decl.getDim()) {
      e.a = *dim;
    } else if (auto fn = decl.getFn()) {
      std::optional<UnaryFn> unary = symbolizeUnaryFn(*fn);
      if (!unary)
        return decl.emitOpError("has an unknown function '") << *fn << "'";
      e.a = static_cast<int64_t>(toRuntime(*unary));
    }
    if (auto label = decl.getLabel())
      e.text = label->str();
    if (auto path = decl.getPath())
      e.text = path->str();
    if (code == OpCode::Constant) {
      e.data = "kConstant" + std::to_string(index);
      std::string def = "const double " + e.data + "[] = {";
      size_t n = 0;
      for (APFloat v : decl.getData()->getValues<APFloat>()) {
        def += (n ? (n % 8 ? ", " : ",\n    ") : "") +
               literal(v.convertToDouble());
        ++n;
      }
      constants.push_back(def + "};");
    }
    if (code == OpCode::Print || code == OpCode::PrintScalar ||
        code == OpCode::Save)
      outputs.push_back(index);
    ops.push_back(std::move(e));
  }
  return success();
}

LogicalResult CppEmitter::collectGraph() {
  // The resources of each node: the machine the graph was planned for.
  int64_t nodes = graph.getNodes().value_or(1);
  if (nodes != int64_t(machine.nodes.size()))
    return graph.emitOpError("is planned for ")
           << nodes << " node(s), but the module's machine model has "
           << machine.nodes.size();
  for (const scheduling::NodeSpec &node : machine.nodes) {
    workers.push_back(node.workers);
    threads.push_back(node.threadsPerWorker);
    communicators.push_back(node.communicators);
  }

  llvm::DenseMap<Value, int> slotOf;
  size_t order = 0;
  for (Operation &inner : graph.getBodyBlock()) {
    ++order;
    if (auto recv = dyn_cast<tg::RecvOp>(inner)) {
      int source = slotOf.at(recv.getInput());
      ++slots[source].uses;
      SlotInfo target = slots[source];
      target.node = recv.getTo();
      target.uses = 0;
      slotOf[recv.getResult()] = slots.size();
      slots.push_back(target);
      int64_t sendComm = recv.getSendComm().value_or(0);
      int64_t recvComm = recv.getRecvComm().value_or(0);
      if (sendComm >= communicators[recv.getFrom()] ||
          recvComm >= communicators[recv.getTo()])
        return recv.emitOpError("uses a communicator the node does not have");
      transfers.push_back(
          {source, int(slots.size() - 1), int64_t(recv.getFrom()),
           int64_t(recv.getTo()), sendComm, recvComm,
           recv.getStart() ? recv.getStart()->convertToDouble() : 0.0,
           recv.getFinish() ? recv.getFinish()->convertToDouble() : 0.0, order,
           recv.getTouch() ? recv.getTouch()->convertToDouble() : 0.0});
      continue;
    }
    auto task = dyn_cast<tg::TaskOp>(inner);
    if (!task)
      continue; // cache put/evict: the executor releases after the last use
    if (!task.getNode())
      return task.emitOpError("has no placement; run cmm-schedule first");
    int64_t op = -1;
    if (auto name = task.getOpAttr())
      op = opIndex.lookup(name.getAttr()); // the verifier resolved it
    else if (task.getTaskKind() != tg::TaskKind::Merge)
      return task.emitOpError("does not say which op it computes part of "
                              "(attribute 'op')");
    TaskInfo info;
    info.kind = task.getTaskKind();
    info.op = op;
    info.node = *task.getNode();
    info.worker = task.getWorker().value_or(0);
    if (info.node >= nodes || info.worker >= workers[info.node])
      return task.emitOpError("is placed on a worker the machine lacks");
    for (Value in : task.getInputs()) {
      int s = slotOf.at(in);
      ++slots[s].uses;
      info.inputs.push_back(s);
    }
    info.firstOutput = slots.size();
    info.numOutputs = task.getNumResults();
    auto origins = task.getOrigins();
    for (auto [i, result] : llvm::enumerate(task.getResults())) {
      auto type = cast<tg::TileType>(result.getType());
      slotOf[result] = slots.size();
      slots.push_back({info.node, type.getRows(), type.getCols(),
                       origins ? (*origins)[2 * i] : 0,
                       origins ? (*origins)[2 * i + 1] : 0, 0});
    }
    info.name = task.getName().value_or("task").str();
    info.start = task.getStart() ? task.getStart()->convertToDouble() : 0.0;
    info.finish = task.getFinish() ? task.getFinish()->convertToDouble() : 0.0;
    info.touch = task.getTouch() ? task.getTouch()->convertToDouble() : 0.0;
    info.order = order;
    info.cost = task.getCostClass();
    info.m = double(task.getM().value_or(1));
    info.n = double(task.getN().value_or(1));
    info.k = double(task.getK().value_or(1));
    if (task.getTaskKind() == tg::TaskKind::DistributedGemm) {
      // The runtime runs COSMA on the gang's ranks, in the gang's order
      // (the first, where the task is placed, gathers C), each on its
      // node's worker 0. The graph's verifier has checked the gang: not
      // empty, its nodes distinct and in range, the first the task's node,
      // every operand on one of them.
      ArrayRef<int64_t> gang = task.getNodesAttr().asArrayRef();
      info.firstGangNode = int(gangNodes.size());
      info.numGangNodes = int(gang.size());
      gangNodes.insert(gangNodes.end(), gang.begin(), gang.end());
      // Each node's entry reads the operand tiles located there, A's then
      // B's (A's tiles come first among the operands: m x k of them by
      // area); the results appear on the first node.
      int64_t areaA = task.getM().value_or(1) * task.getK().value_or(1);
      std::vector<std::vector<int>> ofA(nodes), ofB(nodes);
      int64_t covered = 0;
      for (auto [i, in] : llvm::enumerate(task.getInputs())) {
        auto type = cast<tg::TileType>(in.getType());
        int slot = info.inputs[i];
        (covered < areaA ? ofA : ofB)[slots[slot].node].push_back(slot);
        covered += type.getRows() * type.getCols();
      }
      for (int64_t n : gang) {
        TaskInfo entry = info;
        entry.node = n;
        entry.worker = 0;
        entry.inputs = ofA[n];
        entry.inputs.insert(entry.inputs.end(), ofB[n].begin(), ofB[n].end());
        entry.inputsA = int(ofA[n].size());
        if (n != info.node)
          entry.numOutputs = 0;
        tasks.push_back(std::move(entry));
      }
      continue;
    }
    tasks.push_back(std::move(info));
  }
  // Each node's tasks in schedule order; transfers in schedule order (ties
  // in graph order, which is topological), so every worker and
  // communicator thread meets its work in the order of the plan.
  std::stable_sort(tasks.begin(), tasks.end(),
                   [](const TaskInfo &a, const TaskInfo &b) {
                     return std::tie(a.node, a.start, a.order) <
                            std::tie(b.node, b.start, b.order);
                   });
  std::stable_sort(transfers.begin(), transfers.end(),
                   [](const TransferInfo &a, const TransferInfo &b) {
                     return std::tie(a.start, a.order) <
                            std::tie(b.start, b.order);
                   });
  return success();
}

void CppEmitter::emit() {
  emitHeader(/*program=*/false, hasKernels());
  emitTables();
  os << "} // namespace\n\n"
     << "int main(int argc, char **argv) { return cmmrt::runPlan(kPlan, "
        "argc, argv); }\n";
}

void CppEmitter::emitHeader(bool program, bool anyKernels) {
  int64_t nodes = workers.size();
  os << "// Generated by cmm-translate --cmm-to-cpp from " << sourceFile
     << "; do not edit.\n";
  if (program)
    os << "// A program with run-time control flow: a plan per segment "
          "(cmmrt/Program.h).\n";
  else
    os << "// Plan: " << nodes << " node(s), tile size " << graph.getTileSize()
       << ", scheduler " << graph.getScheduler().value_or("?")
       << ", predicted makespan " << llvm::format("%.6g", makespan())
       << " s.\n";
  os << "// Build: mpicxx " CMM_PROGRAM_CXX_FLAGS " this.cpp -lcmmrt_mpi "
        "-lcmmrt -lopenblas\n"
     << "// Run:   mpirun -np " << nodes << " ./a.out [--stats]\n\n"
     << (program ? "#include \"cmmrt/Program.h\"\n"
                 : "#include \"cmmrt/Plan.h\"\n")
     << (!anyKernels
             ? ""
             : "#include \"cmmrt/Scalar.h\"\n#include \"cmmrt/VectorMath.h\"\n")
     << "\n"
     << "static_assert(cmmrt::plan::kPlanAbiVersion == "
     << cmmrt::plan::kPlanAbiVersion
     << ",\n              \"this program was generated for another version of "
        "the cmm runtime: regenerate it with the cmmc of this runtime\");\n\n"
     << "namespace {\nusing namespace cmmrt::plan;\n\n";
}

void CppEmitter::emitTables() {
  int64_t nodes = workers.size();
  for (const std::string &c : constants)
    os << c << "\n";
  if (!constants.empty())
    os << "\n";
  if (!kernels.empty())
    os << "// The fused ops' kernels: one loop nest over each result tile.\n";
  for (const std::string &k : kernels)
    os << k << "\n";

  os << "// The ops of @main: code, result rows x cols, first operand rows x "
        "cols,\n// scalar, a, b, text, constant data, source line and "
        "column, fused kernel.\nconst Op kOps[] = {\n";
  for (auto [i, e] : llvm::enumerate(ops))
    os << "    /*" << i << "*/ {OpCode::" << e.code << ", " << e.rows << ", "
       << e.cols << ", " << e.inRows << ", " << e.inCols << ", "
       << literal(e.scalar) << ", " << e.a << ", " << e.b << ", "
       << (e.text.empty() && e.code != "Print" && e.code != "PrintScalar"
               ? std::string("nullptr")
               : quote(e.text))
       << ", " << (e.data.empty() ? "nullptr" : e.data) << ", " << e.line
       << ", " << e.column << ", " << (e.kernel.empty() ? "nullptr" : e.kernel)
       << "},\n";
  os << "};\n\n";

  os << "// Tile copies: node, rows, cols, origin row, origin column, uses "
        "on the node.\nconst Slot kSlots[] = {\n";
  for (auto [i, s] : llvm::enumerate(slots))
    os << "    /*" << i << "*/ {" << s.node << ", " << s.rows << ", " << s.cols
       << ", " << s.row0 << ", " << s.col0 << ", " << s.uses << "},\n";
  os << "};\n\n";

  os << "// Input slots of the tasks, task by task.\nconst int32_t kInputs[] = "
        "{";
  size_t n = 0;
  for (const TaskInfo &t : tasks)
    for (int s : t.inputs)
      os << (n++ % 16 ? " " : "\n    ") << s << ",";
  if (!n)
    os << "0";
  os << "\n};\n\n";

  os << "// Tasks, each node's in schedule order: kind, op, node, worker, "
        "inputs\n// (first, count), outputs (first slot, count), name, "
        "predicted start and finish,\n// tiles of A among the inputs "
        "(distributed_gemm), cost class and its m, n, k, gang (first node, "
        "count),\n// predicted first-touch seconds.\nconst Task kTasks[] = {\n";
  int firstInput = 0;
  int64_t node = -1;
  for (const TaskInfo &t : tasks) {
    if (t.node != node) {
      node = t.node;
      os << "    // node " << node << "\n";
    }
    os << "    {TaskKind::" << kindName(t.kind) << ", " << t.op << ", "
       << t.node << ", " << t.worker << ", " << firstInput << ", "
       << t.inputs.size() << ", " << t.firstOutput << ", " << t.numOutputs
       << ", " << quote(t.name) << ", " << literal(t.start) << ", "
       << literal(t.finish) << ", " << t.inputsA
       << ", CostClass::" << costClassEnumerator(t.cost) << ", " << literal(t.m)
       << ", " << literal(t.n) << ", " << literal(t.k);
    if (t.numGangNodes || t.touch > 0)
      os << ", " << t.firstGangNode << ", " << t.numGangNodes;
    if (t.touch > 0)
      os << ", " << literal(t.touch);
    os << "},\n";
    firstInput += t.inputs.size();
  }
  os << "};\n\n";

  os << "// Transfers in schedule order: source slot, target slot, from, to, "
        "send\n// communicator (the message's), receiving communicator "
        "thread, start, finish, predicted first-touch seconds.\nconst Transfer "
        "kTransfers[] = {";
  for (const TransferInfo &x : transfers) {
    os << "\n    {" << x.source << ", " << x.target << ", " << x.from << ", "
       << x.to << ", " << x.sendComm << ", " << x.recvComm << ", "
       << literal(x.start) << ", " << literal(x.finish);
    if (x.touch > 0)
      os << ", " << literal(x.touch);
    os << "},";
  }
  if (transfers.empty())
    os << "{0, 0, 0, 0, 0, 0, 0.0, 0.0}";
  os << "\n};\n\n";

  auto list = [&](const char *name, const std::vector<int64_t> &v) {
    os << "const int32_t " << name << "[] = {";
    for (auto [i, x] : llvm::enumerate(v))
      os << (i ? ", " : "") << x;
    os << "};\n";
  };
  list("kWorkers", workers);
  list("kThreads", threads);
  list("kCommunicators", communicators);
  os << "// The gangs of the distributed products (each task's first node, "
        "count).\n";
  list("kGangNodes", gangNodes.empty() ? std::vector<int64_t>{-1} : gangNodes);
  os << "// print, print_scalar and save, in source order.\n";
  std::vector<int64_t> outs(outputs.begin(), outputs.end());
  if (outs.empty())
    outs.push_back(-1);
  list("kOutputs", outs);

  // The source lines of the ops, for run-time errors (line - 1 indexes);
  // none when the source file cannot be read here (standard input, moved).
  int64_t numSourceLines = 0;
  if (auto buffer = llvm::MemoryBuffer::getFile(sourceFile)) {
    SmallVector<StringRef> lines;
    (*buffer)->getBuffer().split(lines, '\n');
    std::vector<bool> used(lines.size(), false);
    for (const OpEntry &e : ops)
      if (e.line >= 1 && e.line <= int64_t(lines.size())) {
        used[e.line - 1] = true;
        numSourceLines = std::max<int64_t>(numSourceLines, e.line);
      }
    if (numSourceLines) {
      os << "const char *const kSourceLines[] = {";
      for (int64_t i = 0; i < numSourceLines; ++i)
        os << (i == 0  ? "\n    "
               : i % 8 ? ", "
                       : ",\n    ")
           << (used[i] ? quote(lines[i].rtrim('\r')) : "nullptr");
      os << "};\n";
    }
  }

  os << "\nconst Plan kPlan = {\n    " << quote(sourceFile) << ", " << nodes
     << ", kWorkers, kThreads, kCommunicators, " << graph.getTileSize() << ", "
     << literal(graph.getMakespan() ? graph.getMakespan()->convertToDouble()
                                    : 0.0)
     << ",\n    kOps, " << ops.size() << ", kSlots, " << slots.size()
     << ", kTasks, " << tasks.size() << ", kInputs,\n    kTransfers, "
     << transfers.size() << ", kOutputs, " << outputs.size() << ", "
     << literal(scheduling::gangMemoryBytes(machine)) << ",\n    "
     << (numSourceLines ? "kSourceLines" : "nullptr") << ", " << numSourceLines
     << ", kGangNodes, " << gangNodes.size() << "};\n";
}

LogicalResult CppEmitter::run() {
  if (failed(collectOps()) || failed(collectGraph()))
    return failure();
  if (slots.empty() && tasks.empty() && !ops.empty()) {
    // A program with only scalar prints has an empty graph; fine.
  }
  emit();
  return success();
}

/// A program with run-time control flow: @main holds the loops and
/// branches and calls its segments (cmm/Planning/Segments.h), each planned
/// as a scheduled graph. The file has each segment's tables in a namespace
/// of its own and @main's control flow as the code around them
/// (cmmrt/Program.h); every value of @main is an environment value.
class ProgramEmitter {
public:
  ProgramEmitter(func::FuncOp main, const llvm::StringMap<tg::GraphOp> &graphs,
                 const scheduling::MachineModel &machine, raw_ostream &os)
      : main(main), graphs(graphs), machine(machine), os(os) {}
  LogicalResult run();

private:
  struct Loop {
    int64_t line, column, assumed;
    bool annotated;
  };
  int64_t idOf(Value v) { return ids.try_emplace(v, ids.size()).first->second; }
  std::string idList(ValueRange values) {
    std::string list;
    for (Value v : values)
      list += (list.empty() ? "" : ", ") + std::to_string(idOf(v));
    return "{" + list + "}";
  }
  /// `to = from` for carried values (nothing when there are none).
  void assign(const std::string &indent, ValueRange to, ValueRange from) {
    if (!to.empty())
      code << indent << "run.assign(" << idList(to) << ", " << idList(from)
           << ");\n";
  }
  std::string where(Location loc) {
    auto at = fileLoc(loc);
    return at ? std::to_string(at->getLine()) + ", " +
                    std::to_string(at->getColumn())
              : "0, 0";
  }
  LogicalResult emitBlock(Block &block, const std::string &indent);

  func::FuncOp main;
  const llvm::StringMap<tg::GraphOp> &graphs;
  std::deque<scheduling::MachineModel> configurations; // of some segments
  const scheduling::MachineModel &machine;
  raw_ostream &os;
  llvm::DenseMap<Value, int64_t> ids;
  std::vector<std::unique_ptr<CppEmitter>> segments; // in program order
  llvm::StringMap<size_t> segmentOf;                 // by callee
  std::vector<Loop> loops;
  std::string text;
  llvm::raw_string_ostream code{text};
  double predicted = 0;
};

LogicalResult ProgramEmitter::emitBlock(Block &block,
                                        const std::string &indent) {
  for (Operation &op : block) {
    if (auto call = dyn_cast<func::CallOp>(op)) {
      code << indent << "run.segment(" << segmentOf.lookup(call.getCallee())
           << ");\n";
    } else if (auto loop = dyn_cast<WhileOp>(op)) {
      size_t l = loops.size();
      auto at = fileLoc(loop.getLoc());
      loops.push_back({at ? at->getLine() : 0, at ? at->getColumn() : 0,
                       loop.getAssumedTrips(),
                       loop.getExpectedTrips().has_value()});
      assign(indent, loop.getBefore().getArguments(), loop.getInits());
      code << indent << "for (run.beginLoop(" << l << ");; run.nextTrip(" << l
           << ")) {\n";
      if (failed(emitBlock(loop.getBefore().front(), indent + "  ")) ||
          failed(emitBlock(loop.getAfter().front(), indent + "  ")))
        return failure();
      code << indent << "}\n" << indent << "run.endLoop(" << l << ");\n";
    } else if (auto condition = dyn_cast<ConditionOp>(op)) {
      auto loop = cast<WhileOp>(condition->getParentOp());
      code << indent << "if (!run.condition(" << idOf(condition.getCondition())
           << ", " << where(condition.getLoc()) << ")) {\n";
      assign(indent + "  ", loop.getResults(), condition.getArgs());
      code << indent << "  break;\n" << indent << "}\n";
      assign(indent, loop.getAfter().getArguments(), condition.getArgs());
    } else if (auto branch = dyn_cast<IfOp>(op)) {
      code << indent << "if (run.condition(" << idOf(branch.getCondition())
           << ", " << where(branch.getLoc()) << ")) {\n";
      if (failed(emitBlock(branch.getThenRegion().front(), indent + "  ")))
        return failure();
      code << indent << "} else {\n";
      if (!branch.getElseRegion().empty() &&
          failed(emitBlock(branch.getElseRegion().front(), indent + "  ")))
        return failure();
      code << indent << "}\n";
    } else if (auto end = dyn_cast<EndOp>(op)) {
      Operation *parent = end->getParentOp();
      if (auto loop = dyn_cast<WhileOp>(parent))
        assign(indent, loop.getBefore().getArguments(), end.getOperands());
      else
        assign(indent, parent->getResults(), end.getOperands());
    } else if (!isa<func::ReturnOp>(op)) {
      return op.emitOpError("--cmm-to-cpp: a program with run-time control "
                            "flow has only segment calls, cmm.while and "
                            "cmm.if in @main (plan it with cmm-plan)");
    }
  }
  return success();
}

LogicalResult ProgramEmitter::run() {
  // The segments, in program order, with their environment values.
  WalkResult walked = main.walk<WalkOrder::PreOrder>([&](func::CallOp call) {
    auto graph = graphs.lookup(call.getCallee());
    if (!graph) {
      call.emitOpError("--cmm-to-cpp: segment @")
          << call.getCallee() << " has no scheduled cmmtg.graph";
      return WalkResult::interrupt();
    }
    // A segment planned for another configuration of the machine (the
    // master alone) runs that one.
    const scheduling::MachineModel *runs = &machine;
    if (auto own = graph->getAttrOfType<tg::MachineAttr>(
            tg::TaskGraphDialect::kMachineAttrName)) {
      std::string error;
      auto &parsed = configurations.emplace_back();
      if (!planning::fromMachineAttr(own, parsed, error)) {
        graph.emitOpError("--cmm-to-cpp: ") << error;
        return WalkResult::interrupt();
      }
      runs = &parsed;
    }
    auto emitter = std::make_unique<CppEmitter>(graph, *runs, os);
    for (Value v : call.getOperands())
      emitter->imports.push_back(idOf(v));
    for (Value v : call.getResults())
      emitter->exports.push_back(idOf(v));
    if (failed(emitter->collect()))
      return WalkResult::interrupt();
    predicted += double(planning::assumedRuns(call)) * emitter->makespan();
    segmentOf[call.getCallee()] = segments.size();
    segments.push_back(std::move(emitter));
    return WalkResult::advance();
  });
  if (walked.wasInterrupted())
    return failure();
  if (segments.empty())
    return main.emitOpError("--cmm-to-cpp: @main calls no segment");
  if (failed(emitBlock(main.getBody().front(), "  ")))
    return failure();

  bool kernels =
      llvm::any_of(segments, [](auto &s) { return s->hasKernels(); });
  segments.front()->emitHeader(/*program=*/true, kernels);
  for (auto [i, segment] : llvm::enumerate(segments)) {
    os << "// Segment " << i << ".\nnamespace seg" << i << " {\n";
    segment->emitTables();
    os << "} // namespace seg" << i << "\n\n";
  }
  os << "const Plan *const kPlans[] = {";
  for (size_t i = 0; i < segments.size(); ++i)
    os << (i ? ", " : "") << "&seg" << i << "::kPlan";
  os << "};\n\n// The run-time loops: line, column, trips the plans assume, "
        "whether from '# expect'.\nconst cmmrt::LoopInfo kLoops[] = {";
  for (const Loop &l : loops)
    os << "\n    {" << l.line << ", " << l.column << ", " << l.assumed << ", "
       << (l.annotated ? "true" : "false") << "},";
  if (loops.empty())
    os << "{0, 0, 0, false}";
  os << "\n};\n\nconst cmmrt::ProgramInfo kProgram = {\n    "
     << quote(segments.front()->source()) << ", " << ids.size() << ", kPlans, "
     << segments.size() << ", kLoops, " << loops.size() << ", "
     << literal(predicted) << "};\n\n"
     << "// @main's control flow around the segments.\n"
     << "void body(cmmrt::ProgramRun &run) {\n"
     << text << "}\n"
     << "} // namespace\n\n"
     << "int main(int argc, char **argv) {\n"
     << "  return cmmrt::runProgram(kProgram, body, argc, argv);\n}\n";
  return success();
}

} // namespace

LogicalResult cmm::translateToCpp(ModuleOp module, raw_ostream &os) {
  // Run-time control flow: @main calls its planned segments.
  auto main = module.lookupSymbol<func::FuncOp>("main");
  bool program = false;
  if (main && !main.isExternal())
    main.walk([&](func::CallOp) { program = true; });
  tg::GraphOp scheduled;
  bool unscheduled = false;
  for (auto graph : module.getOps<tg::GraphOp>()) {
    if (!graph.isScheduled()) {
      unscheduled = true;
      continue;
    }
    if (scheduled && !program)
      return graph.emitError("--cmm-to-cpp: more than one scheduled "
                             "cmmtg.graph; a program is one plan");
    scheduled = graph;
  }
  if (!scheduled)
    return module.emitError("--cmm-to-cpp: ")
           << (unscheduled
                   ? "the module's task graphs are not scheduled: run "
                     "cmm-schedule first (or cmm-plan on the cmm IR)"
                   : "the module has no scheduled cmmtg.graph: run "
                     "cmm-plan (or cmm-default-pipeline) on the cmm IR first");
  auto attached = module->getAttrOfType<tg::MachineAttr>(
      tg::TaskGraphDialect::kMachineAttrName);
  if (!attached)
    return module.emitError("--cmm-to-cpp: the module has no machine model "
                            "(cmmtg.machine): plan it with cmm-plan, or run "
                            "cmm-attach-machine-model before cmm-schedule");
  scheduling::MachineModel machine;
  std::string error;
  if (!planning::fromMachineAttr(attached, machine, error))
    return module.emitError("--cmm-to-cpp: ") << error;
  if (program) {
    llvm::StringMap<tg::GraphOp> graphs;
    for (auto graph : module.getOps<tg::GraphOp>())
      if (graph.isScheduled())
        graphs[graph.getFunction()] = graph;
    return ProgramEmitter(main, graphs, machine, os).run();
  }
  return CppEmitter(scheduled, machine, os).run();
}

void cmm::registerToCppTranslation() {
  static TranslateFromMLIRRegistration toCpp(
      "cmm-to-cpp", "translate a scheduled cmm module to a C++/MPI program",
      [](Operation *op, raw_ostream &os) -> LogicalResult {
        auto module = dyn_cast<ModuleOp>(op);
        if (!module)
          return op->emitError("--cmm-to-cpp expects a module");
        return translateToCpp(module, os);
      },
      [](DialectRegistry &registry) { registerAllDialects(registry); });
}
