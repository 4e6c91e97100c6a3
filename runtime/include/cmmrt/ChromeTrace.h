//===- ChromeTrace.h - Writing Chrome trace event files ---------*- C++ -*-===//
//
// The one writer of the Chrome trace event format (the JSON Perfetto and
// chrome://tracing load) used by the planner's predicted trace (`cmm-plan
// plan-trace=`) and by the generated programs' measured trace (`CMM_TRACE`).
// Where the events go (process and thread numbering, names) is
// cmmrt/TraceLayout.h. Times are given in seconds and written in
// microseconds, numbers in their shortest exact form.
//
//===----------------------------------------------------------------------===//

#ifndef CMMRT_CHROMETRACE_H
#define CMMRT_CHROMETRACE_H

#include <cstdint>
#include <string>
#include <string_view>

namespace cmmrt::trace {

/// A JSON object written member by member, in order.
class JsonObject {
public:
  JsonObject &number(std::string_view key, double value);
  JsonObject &string(std::string_view key, std::string_view value);
  JsonObject &object(std::string_view key, const JsonObject &value);
  /// A member whose value is JSON text already (e.g. an array).
  JsonObject &raw(std::string_view key, std::string_view json);
  /// `{...}`.
  std::string text() const { return "{" + members + "}"; }
  bool empty() const { return members.empty(); }

private:
  void key(std::string_view key);
  std::string members;
};

/// Appends `value` as a JSON string literal: quotes, backslashes and control
/// characters escaped, bytes that are not UTF-8 replaced by U+FFFD.
void appendJsonString(std::string &out, std::string_view value);

/// Trace events, one per line, separated by commas.
class EventList {
public:
  /// A metadata event ("ph":"M"): `what` is process_name, thread_name,
  /// process_sort_index or thread_sort_index; `args` e.g. {"name": ...}.
  void metadata(const char *what, int pid, int tid, const JsonObject &args);
  /// A complete event ("ph":"X") from `start` for `duration` seconds.
  void complete(std::string_view name, std::string_view category, int pid,
                int tid, double start, double duration,
                const JsonObject &args = {});
  /// An instant event on one thread ("ph":"i", "s":"t") at `time` seconds.
  void instant(std::string_view name, std::string_view category, int pid,
               int tid, double time, const JsonObject &args = {});
  /// Appends the events of another list (e.g. gathered from other ranks).
  void append(std::string_view events);

  const std::string &text() const { return events; }
  bool empty() const { return events.empty(); }

private:
  void add(const JsonObject &event);
  std::string events;
};

/// The whole file: {"traceEvents":[...],"displayTimeUnit":"ms"} with an
/// "otherData" object when it has members, and a final newline.
std::string traceDocument(const EventList &events,
                          const JsonObject &otherData = {});

} // namespace cmmrt::trace

#endif // CMMRT_CHROMETRACE_H
