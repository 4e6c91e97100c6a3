//===- FuzzMachineModel.cpp - libFuzzer: the machine-model JSON loader ----===//
//
// Any text as a machine model (docs/machine-model.md): an error naming the
// bad value, or a model whose printed form reads back to the same text.
//
//===----------------------------------------------------------------------===//

#include "cmm/Scheduling/MachineModel.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

[[noreturn]] static void fail(const char *what, const std::string &text) {
  std::fprintf(stderr, "cmm-fuzz-machine-model: %s:\n%s\n", what, text.c_str());
  std::abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string json(reinterpret_cast<const char *>(data), size);
  cmm::scheduling::MachineModel model;
  std::string error;
  if (!cmm::scheduling::parseMachineModel(json, model, error)) {
    if (error.empty())
      fail("a refusal without a message", json);
    return 0;
  }
  // printMachineModel's promise: it reads back to an equal model.
  std::string printed = cmm::scheduling::printMachineModel(model);
  cmm::scheduling::MachineModel again;
  if (!cmm::scheduling::parseMachineModel(printed, again, error))
    fail(("the printed model does not read back: " + error).c_str(), printed);
  std::string reprinted = cmm::scheduling::printMachineModel(again);
  if (reprinted != printed)
    fail("the printed model reads back to another model",
         printed + "\n" + reprinted);
  return 0;
}
