//===- RewriteLog.h - Name of the rewrite-log attribute ---------*- C++ -*-===//

#ifndef CMM_LIB_TRANSFORMS_REWRITELOG_H
#define CMM_LIB_TRANSFORMS_REWRITELOG_H

namespace cmm {
/// Function attribute holding {"pass:rule" = count} between the `before`
/// and `after` flop reports.
inline constexpr const char kRewriteLogAttr[] = "cmm.rewrite_log";
} // namespace cmm

#endif
