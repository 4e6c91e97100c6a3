//===- RuntimeMapping.h - cmm enums to runtime kernel enums -----*- C++ -*-===//
//
// The front end folds scalars and the interpreter executes ops with the same
// runtime functions (cmmrt/Kernels.h), so a compile-time `mod(-7, 3)` and a
// run-time one cannot disagree. These map the dialect's enums onto them.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_DIALECT_RUNTIMEMAPPING_H
#define CMM_DIALECT_RUNTIMEMAPPING_H

#include "cmm/Dialect/Cmm/CmmDialect.h"
#include "cmmrt/Kernels.h"

namespace cmm {

inline cmmrt::MapFn toRuntime(UnaryFn fn) {
  switch (fn) {
  case UnaryFn::Sqrt:
    return cmmrt::MapFn::Sqrt;
  case UnaryFn::Exp:
    return cmmrt::MapFn::Exp;
  case UnaryFn::Log:
    return cmmrt::MapFn::Log;
  case UnaryFn::Abs:
    return cmmrt::MapFn::Abs;
  case UnaryFn::Sin:
    return cmmrt::MapFn::Sin;
  case UnaryFn::Cos:
    return cmmrt::MapFn::Cos;
  case UnaryFn::Tanh:
    return cmmrt::MapFn::Tanh;
  case UnaryFn::Floor:
    return cmmrt::MapFn::Floor;
  case UnaryFn::Round:
    return cmmrt::MapFn::Round;
  }
  llvm_unreachable("unknown UnaryFn");
}

inline cmmrt::ReduceFn toRuntime(ReduceKind kind) {
  switch (kind) {
  case ReduceKind::Sum:
    return cmmrt::ReduceFn::Sum;
  case ReduceKind::Max:
    return cmmrt::ReduceFn::Max;
  case ReduceKind::Min:
    return cmmrt::ReduceFn::Min;
  case ReduceKind::Mean:
    return cmmrt::ReduceFn::Mean;
  }
  llvm_unreachable("unknown ReduceKind");
}

inline cmmrt::BinaryFn toRuntime(CmpPredicate pred) {
  switch (pred) {
  case CmpPredicate::GT:
    return cmmrt::BinaryFn::Gt;
  case CmpPredicate::LT:
    return cmmrt::BinaryFn::Lt;
  case CmpPredicate::GE:
    return cmmrt::BinaryFn::Ge;
  case CmpPredicate::LE:
    return cmmrt::BinaryFn::Le;
  case CmpPredicate::EQ:
    return cmmrt::BinaryFn::Eq;
  }
  llvm_unreachable("unknown CmpPredicate");
}

} // namespace cmm

#endif // CMM_DIALECT_RUNTIMEMAPPING_H
