//===- IOUtil.cpp - Private helpers of the matrix file readers ------------===//
//
// Error messages, POSIX file access (positioned reads, buffered lines, atomic
// replacement) and locale-independent number conversion for the matrix file
// formats.
//
//===----------------------------------------------------------------------===//

#include "IOUtil.h"

#include "cmmrt/Format.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <new>
#include <sys/stat.h>
#include <unistd.h>

namespace cmmrt {
namespace io {

//===----------------------------------------------------------------------===//
// Error messages
//===----------------------------------------------------------------------===//

std::string quote(const std::string &path) { return "'" + path + "'"; }

bool fail(std::string &error, const std::string &path,
          const std::string &message) {
  error = quote(path) + ": " + message;
  return false;
}

bool failErrno(std::string &error, const std::string &path,
               const std::string &message, int errnum) {
  return fail(error, path, message + ": " + std::strerror(errnum));
}

bool failEmpty(std::string &error, const std::string &path, int64_t rows,
               int64_t cols) {
  return fail(error, path,
              "empty matrix is not supported (shape " + std::to_string(rows) +
                  "x" + std::to_string(cols) + ")");
}

bool allocateMatrix(std::string &error, const std::string &path, int64_t rows,
                    int64_t cols, Matrix &matrix, double fill) {
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
  double physical = pages > 0 && pageSize > 0 ? double(pages) * pageSize : 1e18;
  double bytes = 8.0 * double(rows) * double(cols);
  std::string what = "cannot allocate a " + std::to_string(rows) + "x" +
                     std::to_string(cols) + " matrix (" +
                     formatNumber(bytes / (1 << 30)) + " GiB)";
  if (bytes > physical)
    return fail(error, path,
                what + ": the machine has " +
                    formatNumber(physical / (1 << 30)) + " GiB of memory");
  try {
    matrix = Matrix(rows, cols, fill);
  } catch (const std::bad_alloc &) {
    return fail(error, path, what + ": out of memory");
  }
  return true;
}

std::string describeToken(std::string_view text) {
  constexpr size_t maxLength = 40;
  std::string result = "'";
  for (size_t i = 0; i < text.size() && i < maxLength; ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      result += static_cast<char>(c);
    } else {
      char escaped[8];
      std::snprintf(escaped, sizeof(escaped), "\\x%02x", c);
      result += escaped;
    }
  }
  if (text.size() > maxLength)
    result += "...";
  return result + "'";
}

//===----------------------------------------------------------------------===//
// InputFile
//===----------------------------------------------------------------------===//

InputFile::~InputFile() {
  if (fd_ >= 0)
    ::close(fd_);
}

bool InputFile::open(const std::string &path, std::string &error) {
  path_ = path;
  do {
    // O_NONBLOCK: opening a FIFO with no writer must not hang (it is refused
    // below); it changes nothing for regular files.
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  } while (fd_ < 0 && errno == EINTR);
  if (fd_ < 0)
    return failErrno(error, path, "cannot open", errno);
  struct stat info;
  if (::fstat(fd_, &info) != 0)
    return failErrno(error, path, "cannot stat", errno);
  if (S_ISDIR(info.st_mode))
    return failErrno(error, path, "cannot open", EISDIR);
  // A matrix file is read twice (its shape at compile time, its data at run
  // time), which a FIFO, a device or a socket cannot do; /dev/zero would
  // also never end.
  if (!S_ISREG(info.st_mode))
    return fail(error, path,
                "cannot read: not a regular file (a FIFO, device or socket)");
  isRegular_ = true;
  size_ = static_cast<int64_t>(info.st_size);
  return true;
}

bool InputFile::readAt(int64_t offset, void *buffer, size_t length,
                       std::string &error) {
  char *out = static_cast<char *>(buffer);
  while (length > 0) {
    ssize_t got = ::pread(fd_, out, length, static_cast<off_t>(offset));
    if (got < 0) {
      if (errno == EINTR)
        continue;
      return failErrno(error, path_, "cannot read", errno);
    }
    if (got == 0)
      return fail(error, path_,
                  "cannot read: unexpected end of file at byte " +
                      std::to_string(offset) +
                      " (was the file changed while it was read?)");
    out += got;
    offset += got;
    length -= static_cast<size_t>(got);
  }
  return true;
}

int64_t InputFile::readSome(void *buffer, size_t length, std::string &error) {
  for (;;) {
    ssize_t got = ::read(fd_, buffer, length);
    if (got >= 0)
      return got;
    if (errno != EINTR) {
      failErrno(error, path_, "cannot read", errno);
      return -1;
    }
  }
}

//===----------------------------------------------------------------------===//
// LineReader
//===----------------------------------------------------------------------===//

bool LineReader::next(std::string_view &line) {
  constexpr size_t chunkSize = 1 << 16;
  size_t scanFrom = begin_;
  for (;;) {
    size_t newline = buffer_.find('\n', scanFrom);
    if (newline != std::string::npos) {
      size_t end = newline;
      if (end > begin_ && buffer_[end - 1] == '\r')
        --end;
      line = std::string_view(buffer_).substr(begin_, end - begin_);
      begin_ = newline + 1;
      ++lineNumber_;
      return true;
    }
    if (eof_) {
      if (begin_ == buffer_.size())
        return false;
      size_t end = buffer_.size();
      if (buffer_[end - 1] == '\r')
        --end;
      line = std::string_view(buffer_).substr(begin_, end - begin_);
      begin_ = buffer_.size();
      ++lineNumber_;
      return true;
    }
    // Drop consumed lines, then append the next chunk.
    buffer_.erase(0, begin_);
    begin_ = 0;
    scanFrom = buffer_.size();
    buffer_.resize(scanFrom + chunkSize);
    int64_t got = file_.readSome(&buffer_[scanFrom], chunkSize, error_);
    if (got < 0) {
      buffer_.clear();
      return false;
    }
    buffer_.resize(scanFrom + static_cast<size_t>(got));
    if (got == 0)
      eof_ = true;
  }
}

//===----------------------------------------------------------------------===//
// Atomic writes
//===----------------------------------------------------------------------===//

namespace {
bool writeAll(int fd, const std::string &contents, int &errnum) {
  const char *data = contents.data();
  size_t left = contents.size();
  while (left > 0) {
    ssize_t put = ::write(fd, data, left);
    if (put < 0) {
      if (errno == EINTR)
        continue;
      errnum = errno;
      return false;
    }
    data += put;
    left -= static_cast<size_t>(put);
  }
  return true;
}
} // namespace

bool writeFileAtomically(const std::string &path, const std::string &contents,
                         std::string &error) {
  std::string tempPath =
      path + ".tmp." + std::to_string(static_cast<long>(::getpid()));
  const int flags = O_WRONLY | O_CREAT | O_EXCL | O_TRUNC | O_CLOEXEC;
  int fd = ::open(tempPath.c_str(), flags, 0666);
  if (fd < 0 && errno == EEXIST) {
    // A leftover of an earlier process with the same pid.
    ::unlink(tempPath.c_str());
    fd = ::open(tempPath.c_str(), flags, 0666);
  }
  if (fd < 0)
    return failErrno(error, path,
                     "cannot create temporary file " + quote(tempPath), errno);

  auto failStep = [&](const char *verb, int errnum) {
    ::unlink(tempPath.c_str());
    return failErrno(error, path,
                     std::string("cannot ") + verb + " temporary file " +
                         quote(tempPath),
                     errnum);
  };
  int errnum = 0;
  if (!writeAll(fd, contents, errnum)) {
    ::close(fd);
    return failStep("write", errnum);
  }
  if (::fsync(fd) != 0 && errno != EINVAL && errno != EROFS) {
    errnum = errno;
    ::close(fd);
    return failStep("sync", errnum);
  }
  if (::close(fd) != 0)
    return failStep("close", errno);
  if (::rename(tempPath.c_str(), path.c_str()) != 0)
    return failStep("rename", errno);
  return true;
}

//===----------------------------------------------------------------------===//
// Numbers
//===----------------------------------------------------------------------===//

std::string_view trim(std::string_view text) {
  size_t begin = 0, end = text.size();
  while (begin < end && (text[begin] == ' ' || text[begin] == '\t'))
    ++begin;
  while (end > begin && (text[end - 1] == ' ' || text[end - 1] == '\t'))
    --end;
  return text.substr(begin, end - begin);
}

static bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

bool isBlank(std::string_view text) {
  for (char c : text)
    if (!isSpace(c))
      return false;
  return true;
}

std::string_view nextToken(std::string_view &text) {
  size_t begin = 0;
  while (begin < text.size() && isSpace(text[begin]))
    ++begin;
  size_t end = begin;
  while (end < text.size() && !isSpace(text[end]))
    ++end;
  std::string_view token = text.substr(begin, end - begin);
  text.remove_prefix(end);
  return token;
}

NumberError parseDouble(std::string_view text, double &value) {
  // from_chars rejects a leading '+'; allow exactly one before a non-sign.
  if (text.size() >= 2 && text[0] == '+' && text[1] != '-' && text[1] != '+')
    text.remove_prefix(1);
  if (text.empty())
    return NumberError::Invalid;
  const char *end = text.data() + text.size();
  std::from_chars_result result = std::from_chars(text.data(), end, value);
  if (result.ec == std::errc::result_out_of_range && result.ptr == end)
    return NumberError::OutOfRange;
  if (result.ec != std::errc() || result.ptr != end)
    return NumberError::Invalid;
  return NumberError::None;
}

NumberError parseInt64(std::string_view text, int64_t &value) {
  if (text.size() >= 2 && text[0] == '+' && text[1] != '-' && text[1] != '+')
    text.remove_prefix(1);
  if (text.empty())
    return NumberError::Invalid;
  const char *end = text.data() + text.size();
  std::from_chars_result result = std::from_chars(text.data(), end, value);
  if (result.ec == std::errc::result_out_of_range && result.ptr == end)
    return NumberError::OutOfRange;
  if (result.ec != std::errc() || result.ptr != end)
    return NumberError::Invalid;
  return NumberError::None;
}

void appendInt(std::string &out, int64_t value) {
  char buffer[32];
  std::to_chars_result result =
      std::to_chars(buffer, buffer + sizeof(buffer), value);
  out.append(buffer, result.ptr);
}

bool checkedMul(int64_t a, int64_t b, int64_t &result) {
  if (a < 0 || b < 0)
    return false;
  return !__builtin_mul_overflow(a, b, &result);
}

} // namespace io
} // namespace cmmrt
