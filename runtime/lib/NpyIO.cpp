//===- NpyIO.cpp - NumPy .npy reader and writer ---------------------------===//
//
// Reads .npy format versions 1.0, 2.0 and 3.0 holding `<f8`, `<f4`, `<i8` or
// `<i4` data of zero to two dimensions in C or Fortran order, and writes
// version 1.0 `<f8` C-order files byte for byte as numpy 1.24 does. The header
// dict is parsed strictly and checked against the size of the file before any
// data is read, so a truncated, oversized or lying file is an error.
//
//===----------------------------------------------------------------------===//

#include "IOUtil.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace cmmrt {
namespace io {

namespace {

constexpr char npyMagic[] = "\x93NUMPY";
constexpr size_t npyMagicLength = 6;
/// Refuse headers beyond this; numpy writes well under 1 KiB.
constexpr int64_t maxHeaderLength = 1 << 20;
constexpr size_t maxDims = 32;

struct NpyHeader {
  std::string descr;
  bool fortranOrder = false;
  std::vector<int64_t> dims;
};

/// The element types the reader converts to f64.
struct DType {
  const char *descr;
  int64_t itemSize;
};
constexpr DType supportedDTypes[] = {
    {"<f8", 8}, {"<f4", 4}, {"<i8", 8}, {"<i4", 4}};

/// Parses the Python dict literal of a .npy header.
class HeaderParser {
public:
  HeaderParser(std::string_view text, bool allowLongSuffix)
      : text_(text), allowLongSuffix_(allowLongSuffix) {}

  /// On failure returns false and sets `message` (no path prefix).
  bool parse(NpyHeader &header, std::string &message);

private:
  bool atEnd() const { return pos_ >= text_.size(); }
  char peek() const { return atEnd() ? '\0' : text_[pos_]; }
  void skipSpace() {
    while (!atEnd() && (text_[pos_] == ' ' || text_[pos_] == '\t'))
      ++pos_;
  }
  bool error(const std::string &what) {
    message_ = "malformed header: " + what + " at offset " +
               std::to_string(pos_) + " of the header";
    return false;
  }
  bool expect(char c, const char *what) {
    if (peek() != c)
      return error(std::string("expected ") + what);
    ++pos_;
    return true;
  }
  bool parseString(std::string &value);
  bool parseBool(bool &value);
  bool parseDim(int64_t &value);
  bool parseShape(std::vector<int64_t> &dims);

  std::string_view text_;
  bool allowLongSuffix_;
  size_t pos_ = 0;
  std::string message_;
};

bool HeaderParser::parseString(std::string &value) {
  char quoteChar = peek();
  if (quoteChar != '\'' && quoteChar != '"')
    return error("expected a quoted string");
  size_t begin = ++pos_;
  while (!atEnd() && text_[pos_] != quoteChar) {
    char c = text_[pos_];
    if (c == '\\' || c == '\n' || static_cast<unsigned char>(c) < 0x20 ||
        static_cast<unsigned char>(c) >= 0x7f)
      return error("unsupported character in a string");
    ++pos_;
  }
  if (atEnd())
    return error("unterminated string");
  value.assign(text_.substr(begin, pos_ - begin));
  ++pos_;
  return true;
}

bool HeaderParser::parseBool(bool &value) {
  std::string_view rest = text_.substr(pos_);
  if (rest.substr(0, 4) == "True") {
    value = true;
    pos_ += 4;
  } else if (rest.substr(0, 5) == "False") {
    value = false;
    pos_ += 5;
  } else {
    return error("expected True or False for 'fortran_order'");
  }
  return true;
}

bool HeaderParser::parseDim(int64_t &value) {
  if (peek() == '-')
    return error("negative dimension in 'shape'");
  if (peek() < '0' || peek() > '9')
    return error("expected a dimension in 'shape'");
  size_t begin = pos_;
  value = 0;
  while (peek() >= '0' && peek() <= '9') {
    int digit = peek() - '0';
    if (__builtin_mul_overflow(value, int64_t(10), &value) ||
        __builtin_add_overflow(value, int64_t(digit), &value)) {
      while (peek() >= '0' && peek() <= '9')
        ++pos_;
      return error("dimension " +
                   describeToken(text_.substr(begin, pos_ - begin)) +
                   " is too large");
    }
    ++pos_;
  }
  if (pos_ - begin > 1 && text_[begin] == '0')
    return error("dimension with a leading zero in 'shape'");
  // Python 2 wrote long integers as `3L`; numpy accepts them before 3.0.
  if (allowLongSuffix_ && peek() == 'L')
    ++pos_;
  return true;
}

bool HeaderParser::parseShape(std::vector<int64_t> &dims) {
  if (!expect('(', "'(' to start 'shape'"))
    return false;
  skipSpace();
  if (peek() == ')') {
    ++pos_;
    return true;
  }
  for (;;) {
    if (dims.size() == maxDims)
      return error("too many dimensions in 'shape'");
    int64_t dim;
    if (!parseDim(dim))
      return false;
    dims.push_back(dim);
    skipSpace();
    if (peek() == ',') {
      ++pos_;
      skipSpace();
      if (peek() == ')') {
        ++pos_;
        return true;
      }
      continue;
    }
    if (peek() == ')') {
      if (dims.size() == 1)
        return error("'shape' (n) is not a tuple (a 1-D shape is written "
                     "(n,))");
      ++pos_;
      return true;
    }
    return error("expected ',' or ')' in 'shape'");
  }
}

bool HeaderParser::parse(NpyHeader &header, std::string &message) {
  bool sawDescr = false, sawOrder = false, sawShape = false;
  auto finish = [&](bool ok) {
    if (!ok)
      message = message_;
    return ok;
  };
  skipSpace();
  if (!expect('{', "'{' to start the header dict"))
    return finish(false);
  for (;;) {
    skipSpace();
    if (peek() == '}') {
      ++pos_;
      break;
    }
    size_t keyPos = pos_;
    std::string key;
    if (!parseString(key))
      return finish(false);
    bool *seen = key == "descr"           ? &sawDescr
                 : key == "fortran_order" ? &sawOrder
                 : key == "shape"         ? &sawShape
                                          : nullptr;
    if (!seen) {
      pos_ = keyPos;
      return finish(error("unexpected key " + describeToken(key)));
    }
    if (*seen) {
      pos_ = keyPos;
      return finish(error("duplicate key " + describeToken(key)));
    }
    *seen = true;
    skipSpace();
    if (!expect(':', "':' after a key"))
      return finish(false);
    skipSpace();
    bool ok = key == "descr"           ? parseString(header.descr)
              : key == "fortran_order" ? parseBool(header.fortranOrder)
                                       : parseShape(header.dims);
    if (!ok)
      return finish(false);
    skipSpace();
    if (peek() == ',') {
      ++pos_;
      continue;
    }
    if (peek() == '}') {
      ++pos_;
      break;
    }
    return finish(error("expected ',' or '}' after a value"));
  }
  // Only padding may follow the dict; the caller checked the final '\n'.
  skipSpace();
  if (pos_ + 1 != text_.size())
    return finish(error("unexpected text after the header dict"));
  const char *missing = !sawDescr   ? "descr"
                        : !sawOrder ? "fortran_order"
                        : !sawShape ? "shape"
                                    : nullptr;
  if (missing) {
    message =
        std::string("malformed header: the '") + missing + "' key is missing";
    return false;
  }
  return true;
}

std::string shapeText(const std::vector<int64_t> &dims) {
  std::string text = "(";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i)
      text += ", ";
    text += std::to_string(dims[i]);
  }
  return text + (dims.size() == 1 ? ",)" : ")");
}

/// The header of an .npy file, validated against the file's size.
struct NpyLayout {
  NpyHeader header;
  MatrixShape shape;
  int64_t itemSize = 0;
  int64_t dataOffset = 0;
};

bool readLayout(InputFile &file, NpyLayout &layout, std::string &error) {
  const std::string &path = file.path();
  if (!file.isRegular())
    return fail(error, path,
                "cannot read .npy data from a file that is not a regular file");
  int64_t fileSize = file.size();
  if (fileSize == 0)
    return fail(error, path, "not a .npy file (the file is empty)");
  unsigned char prefix[12];
  size_t prefixRead = static_cast<size_t>(std::min<int64_t>(fileSize, 12));
  if (!file.readAt(0, prefix, prefixRead, error))
    return false;
  if (std::memcmp(prefix, npyMagic, std::min(prefixRead, npyMagicLength)) != 0)
    return fail(error, path, "not a .npy file (bad magic string)");
  if (prefixRead < 8)
    return fail(error, path,
                "truncated header: the file ends after " +
                    std::to_string(fileSize) + " bytes");
  unsigned major = prefix[6], minor = prefix[7];
  if ((major != 1 && major != 2 && major != 3) || minor != 0)
    return fail(error, path,
                "unsupported .npy format version " + std::to_string(major) +
                    "." + std::to_string(minor) +
                    " (expected 1.0, 2.0 or 3.0)");
  int64_t prefixLength = major == 1 ? 10 : 12;
  if (fileSize < prefixLength)
    return fail(error, path,
                "truncated header: the file ends after " +
                    std::to_string(fileSize) + " bytes");
  int64_t headerLength =
      major == 1 ? int64_t(prefix[8]) | int64_t(prefix[9]) << 8
                 : int64_t(prefix[8]) | int64_t(prefix[9]) << 8 |
                       int64_t(prefix[10]) << 16 | int64_t(prefix[11]) << 24;
  if (prefixLength + headerLength > fileSize)
    return fail(error, path,
                "truncated header: the header length " +
                    std::to_string(headerLength) +
                    " extends beyond the end of the file (" +
                    std::to_string(fileSize) + " bytes)");
  if (headerLength > maxHeaderLength)
    return fail(error, path,
                "header length " + std::to_string(headerLength) +
                    " exceeds the limit of " + std::to_string(maxHeaderLength) +
                    " bytes");
  std::string text(static_cast<size_t>(headerLength), '\0');
  if (!file.readAt(prefixLength, &text[0], text.size(), error))
    return false;
  if (text.empty() || text.back() != '\n')
    return fail(error, path,
                "malformed header: it is not terminated by a newline");

  NpyHeader &header = layout.header;
  std::string message;
  if (!HeaderParser(text, major < 3).parse(header, message))
    return fail(error, path, message);

  layout.itemSize = 0;
  for (const DType &dtype : supportedDTypes)
    if (header.descr == dtype.descr)
      layout.itemSize = dtype.itemSize;
  if (layout.itemSize == 0) {
    std::string why = !header.descr.empty() && header.descr[0] == '>'
                          ? "big-endian data is not supported; "
                          : "";
    return fail(error, path,
                "unsupported dtype " + describeToken(header.descr) + " (" +
                    why + "expected '<f8', '<f4', '<i8' or '<i4')");
  }

  const std::vector<int64_t> &dims = header.dims;
  if (dims.size() > 2)
    return fail(error, path,
                "unsupported shape " + shapeText(dims) + ": " +
                    std::to_string(dims.size()) +
                    "-D arrays are not supported (expected at most 2 "
                    "dimensions)");
  // () is a 1x1 matrix, (n,) a 1xn row.
  layout.shape.rows = dims.size() == 2 ? dims[0] : 1;
  layout.shape.cols = dims.empty() ? 1 : dims.back();

  int64_t elements, dataBytes, f64Bytes, totalBytes;
  if (!checkedMul(layout.shape.rows, layout.shape.cols, elements) ||
      !checkedMul(elements, layout.itemSize, dataBytes) ||
      !checkedMul(elements, int64_t(sizeof(double)), f64Bytes) ||
      __builtin_add_overflow(prefixLength + headerLength, dataBytes,
                             &totalBytes))
    return fail(error, path,
                "shape " + shapeText(dims) +
                    " is too large: its size in bytes overflows 64 bits");
  if (elements == 0)
    return failEmpty(error, path, layout.shape.rows, layout.shape.cols);
  layout.dataOffset = prefixLength + headerLength;
  if (totalBytes != fileSize) {
    std::string promise =
        (dims.size() == 2
             ? std::to_string(dims[0]) + "x" + std::to_string(dims[1])
             : "shape " + shapeText(dims)) +
        " " + header.descr + " (" + std::to_string(dataBytes) + " bytes)";
    return fail(error, path,
                std::string(totalBytes > fileSize ? "truncated data"
                                                  : "oversized data") +
                    ": header promises " + promise + " but the file holds " +
                    std::to_string(fileSize - layout.dataOffset) +
                    " bytes after the header");
  }
  return true;
}

uint64_t loadLE(const unsigned char *bytes, int64_t size) {
  uint64_t value = 0;
  for (int64_t i = 0; i < size; ++i)
    value |= uint64_t(bytes[i]) << (8 * i);
  return value;
}

double decode(const unsigned char *bytes, char kind, int64_t size) {
  uint64_t bits = loadLE(bytes, size);
  if (kind == 'f') {
    if (size == 8) {
      double value;
      std::memcpy(&value, &bits, sizeof(value));
      return value;
    }
    uint32_t bits32 = static_cast<uint32_t>(bits);
    float value;
    std::memcpy(&value, &bits32, sizeof(value));
    return value;
  }
  if (size == 8)
    return static_cast<double>(static_cast<int64_t>(bits));
  return static_cast<double>(static_cast<int32_t>(static_cast<uint32_t>(bits)));
}

} // namespace

bool readNpyShape(const std::string &path, MatrixShape &shape,
                  std::string &error) {
  InputFile file;
  NpyLayout layout;
  if (!file.open(path, error) || !readLayout(file, layout, error))
    return false;
  shape = layout.shape;
  return true;
}

bool readNpy(const std::string &path, Matrix &matrix, std::string &error) {
  InputFile file;
  NpyLayout layout;
  if (!file.open(path, error) || !readLayout(file, layout, error))
    return false;
  const int64_t rows = layout.shape.rows, cols = layout.shape.cols;
  const int64_t elements = rows * cols;
  const int64_t itemSize = layout.itemSize;
  const char kind = layout.header.descr[1];
  const bool transpose =
      layout.header.fortranOrder && layout.header.dims.size() == 2;
  Matrix result;
  if (!allocateMatrix(error, path, rows, cols, result))
    return false;
  double *out = result.data();

  // Decode in chunks so the raw bytes never take as much memory as the matrix.
  const int64_t chunkElements = (int64_t(1) << 20) / itemSize;
  std::vector<unsigned char> chunk(
      static_cast<size_t>(std::min(elements, chunkElements) * itemSize));
  for (int64_t first = 0; first < elements; first += chunkElements) {
    int64_t count = std::min(chunkElements, elements - first);
    if (!file.readAt(layout.dataOffset + first * itemSize, chunk.data(),
                     static_cast<size_t>(count * itemSize), error))
      return false;
    for (int64_t k = 0; k < count; ++k) {
      int64_t source = first + k;
      // Fortran order stores element (i, j) at j * rows + i.
      int64_t target =
          transpose ? (source % rows) * cols + source / rows : source;
      out[target] =
          decode(&chunk[static_cast<size_t>(k * itemSize)], kind, itemSize);
    }
  }
  matrix = std::move(result);
  return true;
}

void formatNpy(const Matrix &matrix, std::string &out) {
  // numpy 1.24: the dict with sorted keys, spare room for the first dimension
  // to grow to 21 digits, then spaces up to a multiple of 64 bytes and '\n'.
  std::string rowsText = std::to_string(matrix.rows());
  std::string dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (" +
                     rowsText + ", " + std::to_string(matrix.cols()) + "), }";
  if (rowsText.size() < 21)
    dict.append(21 - rowsText.size(), ' ');
  constexpr size_t align = 64, prefixLength = 10;
  size_t padding = align - (prefixLength + dict.size() + 1) % align;
  dict.append(padding, ' ');
  dict += '\n';
  size_t headerLength = dict.size();

  const size_t elements = matrix.values().size();
  out.clear();
  out.reserve(prefixLength + headerLength + elements * sizeof(double));
  out.append(npyMagic, npyMagicLength);
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(headerLength & 0xff);
  out += static_cast<char>(headerLength >> 8 & 0xff);
  out += dict;
  for (double value : matrix.values()) {
    uint64_t bits;
    std::memcpy(&bits, &value, sizeof(bits));
    for (int i = 0; i < 8; ++i)
      out += static_cast<char>(bits >> (8 * i) & 0xff);
  }
}

} // namespace io
} // namespace cmmrt
