//===- CsvIO.cpp - Comma-separated values reader and writer ---------------===//
//
// One matrix row per line, fields separated by commas. Spaces and tabs around
// a field, `\r\n` line ends, a missing final newline and trailing blank lines
// are accepted; every row must have the same number of fields. Numbers are
// parsed with std::from_chars, so the locale does not matter, and `nan`,
// `inf`, `-inf` are accepted in any case. Errors name the file, the 1-based
// line and, for a bad field, the 1-based field number.
//
//===----------------------------------------------------------------------===//

#include "IOUtil.h"

#include "cmmrt/Numbers.h"

#include <vector>

namespace cmmrt {
namespace io {

namespace {

/// Scans the rows of a CSV file, checking field counts and empty fields, and
/// also parsing the numbers into `values` (row-major) when it is not null.
bool scanCsv(const std::string &path, MatrixShape &shape,
             std::vector<double> *values, std::string &error) {
  InputFile file;
  if (!file.open(path, error))
    return false;
  LineReader reader(file);
  auto failAt = [&](int64_t line, int64_t field, const std::string &message) {
    std::string where = "line " + std::to_string(line);
    if (field > 0)
      where += ", field " + std::to_string(field);
    return fail(error, path, where + ": " + message);
  };

  int64_t rows = 0, cols = 0, firstLine = 0, blankLine = 0;
  std::string_view line;
  while (reader.next(line)) {
    // A UTF-8 byte order mark, as spreadsheets write it.
    if (reader.lineNumber() == 1 && line.substr(0, 3) == "\xEF\xBB\xBF")
      line.remove_prefix(3);
    if (isBlank(line)) {
      if (blankLine == 0)
        blankLine = reader.lineNumber();
      continue;
    }
    if (blankLine != 0)
      return failAt(blankLine, 0,
                    "blank line (only trailing blank lines are allowed)");

    int64_t fields = 1;
    for (char c : line)
      fields += c == ',';
    if (rows == 0) {
      cols = fields;
      firstLine = reader.lineNumber();
    } else if (fields != cols) {
      return failAt(reader.lineNumber(), 0,
                    "expected " + std::to_string(cols) +
                        " fields (as on line " + std::to_string(firstLine) +
                        ") but found " + std::to_string(fields));
    }

    int64_t fieldNumber = 0;
    while (true) {
      ++fieldNumber;
      size_t comma = line.find(',');
      std::string_view field = trim(line.substr(0, comma));
      if (field.empty())
        return failAt(reader.lineNumber(), fieldNumber, "empty field");
      if (values) {
        double value;
        NumberError status = parseDouble(field, value);
        if (status != NumberError::None)
          return failAt(reader.lineNumber(), fieldNumber,
                        status == NumberError::OutOfRange
                            ? "number " + describeToken(field) +
                                  " is out of range for f64"
                            : "invalid number " + describeToken(field));
        values->push_back(value);
      }
      if (comma == std::string_view::npos)
        break;
      line.remove_prefix(comma + 1);
    }
    ++rows;
  }
  if (reader.failed()) {
    error = reader.error();
    return false;
  }
  if (rows == 0)
    return fail(error, path,
                "empty file (expected rows of comma-separated numbers)");
  shape = MatrixShape{rows, cols};
  return true;
}

} // namespace

bool readCsvShape(const std::string &path, MatrixShape &shape,
                  std::string &error) {
  return scanCsv(path, shape, nullptr, error);
}

bool readCsv(const std::string &path, Matrix &matrix, std::string &error) {
  MatrixShape shape;
  std::vector<double> values;
  if (!scanCsv(path, shape, &values, error))
    return false;
  Matrix result;
  if (!allocateMatrix(error, path, shape.rows, shape.cols, result))
    return false;
  result.values().assign(values.begin(), values.end());
  matrix = std::move(result);
  return true;
}

void formatCsv(const Matrix &matrix, std::string &out) {
  out.clear();
  for (int64_t i = 0; i < matrix.rows(); ++i) {
    for (int64_t j = 0; j < matrix.cols(); ++j) {
      if (j)
        out += ',';
      appendShortest(out, matrix(i, j), "NaN", "Inf");
    }
    out += '\n';
  }
}

} // namespace io
} // namespace cmmrt
