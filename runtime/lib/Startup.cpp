//===- Startup.cpp - Starting a program with or without mpirun --*- C++ -*-===//

#include "cmmrt/Startup.h"

#include <cstdlib>
#include <initializer_list>

bool cmmrt::startedByLauncher() {
  for (const char *name :
       {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    if (std::getenv(name))
      return true;
  return false;
}

void cmmrt::prepareSingletonStart() {
  // setenv's last argument 0: a value the user set wins.
  setenv("OMPI_MCA_ess_singleton_isolated", "1", 0);
  setenv("OMPI_MCA_pml", "ob1", 0);
}
