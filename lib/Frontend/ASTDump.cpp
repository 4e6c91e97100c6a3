//===- ASTDump.cpp - Textual dump of the .cmm AST ---------------*- C++ -*-===//
//
// One node a line, indented by depth, with the node's line:col:
//   Assign P @2:1
//     Call rand @2:5
//       Name n @2:10
//
//===----------------------------------------------------------------------===//

#include "cmm/Frontend/AST.h"

#include "cmmrt/Format.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SourceMgr.h"

using namespace cmm;

namespace {
class ASTDumper {
public:
  ASTDumper(const llvm::SourceMgr &sm, llvm::raw_ostream &os)
      : sm(sm), os(os) {}

  void dumpBody(llvm::StringRef label, const std::vector<StmtPtr> &body,
                llvm::SMLoc loc) {
    line(label.str(), loc);
    Indent in(indent);
    for (const StmtPtr &s : body)
      dump(*s);
  }

  void dump(const FunctionDef &def) {
    std::string head = "Function " + def.name + "(";
    for (size_t i = 0; i < def.params.size(); ++i)
      head += (i ? ", " : "") + def.params[i].first;
    line(head + ")", def.loc);
    Indent in(indent);
    dumpBody("Body", def.body, def.loc);
  }

  void dump(const Stmt &stmt) {
    if (auto *assign = llvm::dyn_cast<AssignStmt>(&stmt)) {
      line("Assign " + llvm::join(assign->getNames(), ", "), stmt.getLoc());
      Indent in(indent);
      dump(assign->getValue());
    } else if (auto *loop = llvm::dyn_cast<ForStmt>(&stmt)) {
      line("For " + loop->getVar().str(), stmt.getLoc());
      Indent in(indent);
      dump(loop->getRange());
      line("Body", stmt.getLoc());
      Indent inBody(indent);
      for (const StmtPtr &s : loop->getBody())
        dump(*s);
    } else if (auto *exprStmt = llvm::dyn_cast<ExprStmt>(&stmt)) {
      line("ExprStmt", stmt.getLoc());
      Indent in(indent);
      dump(exprStmt->getExpr());
    } else if (auto *assign = llvm::dyn_cast<IndexAssignStmt>(&stmt)) {
      line("IndexAssign " + assign->getName().str(), stmt.getLoc());
      Indent in(indent);
      dump(assign->getTarget());
      dump(assign->getValue());
    } else if (auto *loop = llvm::dyn_cast<WhileStmt>(&stmt)) {
      line("While" +
               (loop->getExpectedTrips()
                    ? " expect " + std::to_string(loop->getExpectedTrips())
                    : std::string()),
           stmt.getLoc());
      Indent in(indent);
      dump(loop->getCondition());
      dumpBody("Body", loop->getBody(), stmt.getLoc());
    } else if (auto *branch = llvm::dyn_cast<IfStmt>(&stmt)) {
      line("If", stmt.getLoc());
      Indent in(indent);
      for (const IfStmt::Clause &clause : branch->getClauses()) {
        dump(*clause.condition);
        dumpBody("Then", clause.body, clause.condition->getLoc());
      }
      if (branch->getElseLoc().isValid())
        dumpBody("Else", branch->getElse(), branch->getElseLoc());
    } else if (llvm::isa<BreakStmt>(&stmt)) {
      line("Break", stmt.getLoc());
    } else if (auto *ret = llvm::dyn_cast<ReturnStmt>(&stmt)) {
      line("Return", stmt.getLoc());
      Indent in(indent);
      if (ret->getValue())
        dump(*ret->getValue());
    }
  }

  void dump(const Expr &expr) {
    std::string head;
    llvm::raw_string_ostream s(head);
    switch (expr.getKind()) {
    case Expr::Kind::Number:
      s << "Number "
        << cmmrt::formatNumber(llvm::cast<NumberExpr>(expr).getValue());
      break;
    case Expr::Kind::Name:
      s << "Name " << llvm::cast<NameExpr>(expr).getName();
      break;
    case Expr::Kind::String:
      s << "String \"" << llvm::cast<StringExpr>(expr).getValue() << "\"";
      break;
    case Expr::Kind::Call:
      s << "Call " << llvm::cast<CallExpr>(expr).getCallee();
      break;
    case Expr::Kind::Unary:
      s << "Unary " << spell(llvm::cast<UnaryExpr>(expr).getOp());
      break;
    case Expr::Kind::Binary:
      s << "Binary " << spell(llvm::cast<BinaryExpr>(expr).getOp());
      break;
    case Expr::Kind::Transpose:
      s << "Transpose";
      break;
    case Expr::Kind::Matrix: {
      auto &rows = llvm::cast<MatrixExpr>(expr).getRows();
      s << "Matrix " << rows.size() << " row(s)";
      break;
    }
    case Expr::Kind::Range:
      s << "Range";
      break;
    case Expr::Kind::Index:
      s << "Index";
      break;
    case Expr::Kind::End:
      s << "End";
      break;
    case Expr::Kind::Colon:
      s << "Colon";
      break;
    }
    line(s.str(), expr.getLoc());
    Indent in(indent);
    switch (expr.getKind()) {
    case Expr::Kind::Call:
      for (const ExprPtr &arg : llvm::cast<CallExpr>(expr).getArgs())
        dump(*arg);
      break;
    case Expr::Kind::Unary:
      dump(llvm::cast<UnaryExpr>(expr).getOperand());
      break;
    case Expr::Kind::Binary:
      dump(llvm::cast<BinaryExpr>(expr).getLhs());
      dump(llvm::cast<BinaryExpr>(expr).getRhs());
      break;
    case Expr::Kind::Transpose:
      dump(llvm::cast<TransposeExpr>(expr).getOperand());
      break;
    case Expr::Kind::Matrix: {
      unsigned r = 0;
      for (const auto &row : llvm::cast<MatrixExpr>(expr).getRows()) {
        line("Row " + std::to_string(r++), expr.getLoc());
        Indent inRow(indent);
        for (const ExprPtr &e : row)
          dump(*e);
      }
      break;
    }
    case Expr::Kind::Range:
      dump(llvm::cast<RangeExpr>(expr).getLo());
      dump(llvm::cast<RangeExpr>(expr).getHi());
      break;
    case Expr::Kind::Index:
      dump(llvm::cast<IndexExpr>(expr).getBase());
      for (const ExprPtr &sub : llvm::cast<IndexExpr>(expr).getSubscripts())
        dump(*sub);
      break;
    default:
      break;
    }
  }

private:
  struct Indent {
    unsigned &n;
    explicit Indent(unsigned &n) : n(n) { ++n; }
    ~Indent() { --n; }
  };

  void line(const std::string &text, llvm::SMLoc loc) {
    auto [l, c] = sm.getLineAndColumn(loc);
    os.indent(2 * indent) << text << " @" << l << ":" << c << "\n";
  }

  const llvm::SourceMgr &sm;
  llvm::raw_ostream &os;
  unsigned indent = 0;
};
} // namespace

void cmm::dumpAST(const Program &program, const llvm::SourceMgr &sourceMgr,
                  llvm::raw_ostream &os) {
  os << "Program " << program.filename << "\n";
  ASTDumper dumper(sourceMgr, os);
  for (const StmtPtr &stmt : program.stmts)
    dumper.dump(*stmt);
  for (const auto &def : program.functions)
    dumper.dump(*def);
}
