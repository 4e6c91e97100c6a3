//===- StartupTest.cpp - Starting with or without a launcher ---*- C++ -*-===//

#include "cmmrt/Startup.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <string>

namespace {

const char *const kLauncherVariables[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK",
                                          "PMI_RANK", "PMI_SIZE"};
const char *const kSingletonVariables[] = {"OMPI_MCA_ess_singleton_isolated",
                                           "OMPI_MCA_pml"};

/// Saves the variables a test changes and puts them back afterwards (the
/// test binary itself may run under mpirun).
class StartupTest : public ::testing::Test {
protected:
  template <typename Fn> static void forEachVariable(Fn fn) {
    for (const char *name : kLauncherVariables)
      fn(name);
    for (const char *name : kSingletonVariables)
      fn(name);
  }
  void SetUp() override {
    forEachVariable([this](const char *name) {
      if (const char *value = std::getenv(name))
        saved[name] = value;
      unsetenv(name);
    });
  }
  void TearDown() override {
    forEachVariable([](const char *name) { unsetenv(name); });
    for (const auto &[name, value] : saved)
      setenv(name.c_str(), value.c_str(), 1);
  }
  std::map<std::string, std::string> saved;
};

TEST_F(StartupTest, EachLauncherVariableMeansALauncher) {
  EXPECT_FALSE(cmmrt::startedByLauncher());
  for (const char *name : kLauncherVariables) {
    setenv(name, "0", 1);
    EXPECT_TRUE(cmmrt::startedByLauncher()) << name;
    unsetenv(name);
  }
  EXPECT_FALSE(cmmrt::startedByLauncher());
}

TEST_F(StartupTest, SingletonStartSetsTheQuickDefaults) {
  cmmrt::prepareSingletonStart();
  ASSERT_NE(std::getenv("OMPI_MCA_ess_singleton_isolated"), nullptr);
  EXPECT_STREQ(std::getenv("OMPI_MCA_ess_singleton_isolated"), "1");
  ASSERT_NE(std::getenv("OMPI_MCA_pml"), nullptr);
  EXPECT_STREQ(std::getenv("OMPI_MCA_pml"), "ob1");
}

TEST_F(StartupTest, TheUsersSettingsWin) {
  setenv("OMPI_MCA_pml", "ucx", 1);
  setenv("OMPI_MCA_ess_singleton_isolated", "0", 1);
  cmmrt::prepareSingletonStart();
  EXPECT_STREQ(std::getenv("OMPI_MCA_pml"), "ucx");
  EXPECT_STREQ(std::getenv("OMPI_MCA_ess_singleton_isolated"), "0");
}

} // namespace
