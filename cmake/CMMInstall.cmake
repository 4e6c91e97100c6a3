# The CMM package: `cmake --install build --prefix P` installs the tools,
# the libraries, the headers (.h, .td, .def and the generated .inc), the
# runtime and a relocatable CMake package, so another project writes
#   find_package(MLIR REQUIRED CONFIG)
#   find_package(CMM REQUIRED CONFIG)      # -DCMM_DIR=P/lib/cmake/cmm
#   target_link_libraries(tool PRIVATE CMM::Pipelines)
# (examples/embedding is such a project).
include(CMakePackageConfigHelpers)

# Library target -> exported name (CMM::<name>).
set(CMM_EXPORTED_LIBRARIES
  cmmrt:Runtime
  cmmrt_mpi:MPIRuntime
  CMMDialect:Dialect
  CMMTaskGraph:TaskGraph
  CMMFrontend:Frontend
  CMMInterpreter:Interpreter
  CMMTransforms:Transforms
  CMMScheduling:Scheduling
  CMMProfile:Profile
  CMMCmmToTaskGraph:CmmToTaskGraph
  CMMPlanning:Planning
  CMMPipelines:Pipelines
  CMMTargetCpp:TargetCpp
  )
set(cmm_library_targets)
foreach(entry ${CMM_EXPORTED_LIBRARIES})
  string(REPLACE ":" ";" pair ${entry})
  list(GET pair 0 target)
  list(GET pair 1 exported)
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${exported})
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:include>)
  list(APPEND cmm_library_targets ${target})
endforeach()

install(TARGETS ${cmm_library_targets}
  EXPORT CMMTargets
  ARCHIVE DESTINATION lib
  LIBRARY DESTINATION lib
  INCLUDES DESTINATION include)
# Installed tools find libMLIR.so / libLLVM.so where this build found them.
set(cmm_tools cmm-opt cmm-translate cmmc cmm-lsp-server cmm-profile)
set_target_properties(${cmm_tools} PROPERTIES
  INSTALL_RPATH "\$ORIGIN/../lib;${LLVM_LIBRARY_DIR}")
install(TARGETS ${cmm_tools} RUNTIME DESTINATION bin)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/cmm DESTINATION include
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td" PATTERN "*.def")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/cmm DESTINATION include
  FILES_MATCHING PATTERN "*.inc" PATTERN "*.h")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/cmmrt
  DESTINATION include)
# The precompiled headers of generated programs (runtime/CMakeLists.txt)
# are made again from the installed headers: a .gch names the paths it was
# made from, and an install names no build path.
list(JOIN CMM_PROGRAM_CXX_FLAGS " " cmmrt_pch_flags)
list(JOIN CMM_SANITIZE_FLAGS " " cmmrt_pch_sanitize)
if(CMM_PROGRAM_PRECOMPILED_HEADERS)
install(CODE "
  foreach(header Executor.h Program.h)
    set(include \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/include\")
    separate_arguments(flags UNIX_COMMAND \"${cmmrt_pch_flags} ${cmmrt_pch_sanitize}\")
    execute_process(COMMAND ${CMAKE_COMMAND} -E env ${CMM_PROGRAM_CXX_ENV}
                            ${MPI_CXX_COMPILER} \${flags} -I\${include}
                            -c -x c++-header \${include}/cmmrt/\${header}
                            -o \${include}/cmmrt/\${header}.gch
                    RESULT_VARIABLE failed)
    if(failed)
      message(WARNING \"could not precompile cmmrt/\${header}: generated \"
                      \"programs build without it\")
    endif()
  endforeach()
")
endif()

install(EXPORT CMMTargets NAMESPACE CMM:: DESTINATION lib/cmake/cmm)
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/CMMConfig.cmake.in
  ${PROJECT_BINARY_DIR}/lib/cmake/cmm/CMMConfig.cmake
  INSTALL_DESTINATION lib/cmake/cmm
  PATH_VARS CMAKE_INSTALL_PREFIX)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/lib/cmake/cmm/CMMConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/lib/cmake/cmm/CMMConfig.cmake
  ${PROJECT_BINARY_DIR}/lib/cmake/cmm/CMMConfigVersion.cmake
  DESTINATION lib/cmake/cmm)
