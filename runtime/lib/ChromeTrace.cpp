//===- ChromeTrace.cpp - Writing Chrome trace event files -------*- C++ -*-===//

#include "cmmrt/ChromeTrace.h"

#include "cmmrt/Numbers.h"

#include <algorithm>
#include <cmath>

using namespace cmmrt::trace;

namespace {
constexpr double kMicros = 1e6;

/// The length of the UTF-8 sequence at the start of `s`, or 0 when it is
/// not one (overlong forms, surrogates and values past U+10FFFF included).
size_t utf8Length(std::string_view s) {
  auto byte = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
  unsigned char c = byte(0);
  size_t n = c < 0x80         ? 1
             : (c >> 5) == 6  ? 2
             : (c >> 4) == 14 ? 3
             : (c >> 3) == 30 ? 4
                              : 0;
  if (n == 0 || n > s.size())
    return 0;
  uint32_t code = n == 1 ? c : c & (0x7f >> n);
  for (size_t i = 1; i < n; ++i) {
    if ((byte(i) >> 6) != 2)
      return 0;
    code = (code << 6) | (byte(i) & 0x3f);
  }
  static const uint32_t kMinimum[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < kMinimum[n] || code > 0x10ffff ||
      (code >= 0xd800 && code <= 0xdfff))
    return 0;
  return n;
}
} // namespace

void cmmrt::trace::appendJsonString(std::string &out, std::string_view value) {
  out += '"';
  for (size_t i = 0; i < value.size();) {
    unsigned char c = static_cast<unsigned char>(value[i]);
    size_t n = utf8Length(value.substr(i));
    if (n == 0) {
      out += "\xef\xbf\xbd"; // U+FFFD
      ++i;
      continue;
    }
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      static const char kHex[] = "0123456789abcdef";
      out += "\\u00";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out.append(value.substr(i, n));
    }
    i += n;
  }
  out += '"';
}

void JsonObject::key(std::string_view key) {
  if (!members.empty())
    members += ',';
  appendJsonString(members, key);
  members += ':';
}

JsonObject &JsonObject::number(std::string_view k, double value) {
  key(k);
  if (std::isfinite(value))
    appendShortest(members, value);
  else
    members += "null"; // JSON has no NaN or infinity
  return *this;
}

JsonObject &JsonObject::string(std::string_view k, std::string_view value) {
  key(k);
  appendJsonString(members, value);
  return *this;
}

JsonObject &JsonObject::object(std::string_view k, const JsonObject &value) {
  return raw(k, value.text());
}

JsonObject &JsonObject::raw(std::string_view k, std::string_view json) {
  key(k);
  members.append(json);
  return *this;
}

void EventList::add(const JsonObject &event) { append(event.text()); }

void EventList::append(std::string_view more) {
  if (more.empty())
    return;
  if (!events.empty())
    events += ",\n";
  events.append(more);
}

void EventList::metadata(const char *what, int pid, int tid,
                         const JsonObject &args) {
  add(JsonObject()
          .string("name", what)
          .string("ph", "M")
          .number("pid", pid)
          .number("tid", tid)
          .object("args", args));
}

void EventList::complete(std::string_view name, std::string_view category,
                         int pid, int tid, double start, double duration,
                         const JsonObject &args) {
  JsonObject event;
  event.string("name", name)
      .string("cat", category)
      .string("ph", "X")
      .number("pid", pid)
      .number("tid", tid)
      .number("ts", start * kMicros)
      .number("dur", std::max(0.0, duration) * kMicros);
  if (!args.empty())
    event.object("args", args);
  add(event);
}

void EventList::instant(std::string_view name, std::string_view category,
                        int pid, int tid, double time, const JsonObject &args) {
  JsonObject event;
  event.string("name", name)
      .string("cat", category)
      .string("ph", "i")
      .string("s", "t")
      .number("pid", pid)
      .number("tid", tid)
      .number("ts", time * kMicros);
  if (!args.empty())
    event.object("args", args);
  add(event);
}

std::string cmmrt::trace::traceDocument(const EventList &events,
                                        const JsonObject &otherData) {
  JsonObject document;
  document.raw("traceEvents", "[\n" + events.text() + "\n]");
  document.string("displayTimeUnit", "ms");
  if (!otherData.empty())
    document.object("otherData", otherData);
  return document.text() + "\n";
}
