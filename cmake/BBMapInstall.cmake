# BBMapInstall.cmake - what `cmake --install` puts under the prefix, for the
# LLVM major N this tree is configured with, so that installs for several
# majors share one prefix without a common file (docs/install.md):
#   bin/bbmap-dump-N, bin/bbmap-profile-N   (bin/bbmap-dump and
#       bin/bbmap-profile link to them with -DBBMAP_UNVERSIONED_LINKS=ON)
#   bin/perf2bolt-bbmap-N, bin/create_llvm_prof-bbmap-N   links to
#       bbmap-profile-N, which reads perf2bolt's and create_llvm_prof's
#       command lines under those names (never bin/perf2bolt-N, bolt-N's)
#   lib/bbmap/llvm-N/bbmap-plugin.so and the static libraries
#   include/bbmap-N/bbmap/...              public headers
#   lib/cmake/bbmap-llvm-N/                the CMake package BBMap
#   share/man/man1/bbmap-dump-N.1, bbmap-profile-N.1 (BBMapMan.cmake)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

option(BBMAP_UNVERSIONED_LINKS
  "Also install bin/bbmap-dump and bin/bbmap-profile (links to the -N tools)"
  OFF)

set(BBMAP_LLVM_MAJOR ${LLVM_VERSION_MAJOR})
set(BBMAP_INSTALL_LIBDIR ${CMAKE_INSTALL_LIBDIR}/bbmap/llvm-${BBMAP_LLVM_MAJOR})
set(BBMAP_INSTALL_INCLUDEDIR
  ${CMAKE_INSTALL_INCLUDEDIR}/bbmap-${BBMAP_LLVM_MAJOR})
set(BBMAP_INSTALL_CMAKEDIR
  ${CMAKE_INSTALL_LIBDIR}/cmake/bbmap-llvm-${BBMAP_LLVM_MAJOR})
set(BBMAP_LIBRARIES bbmap_support bbmap_bbaddrmap bbmap_bat bbmap_instrprof bbmap_perf
  bbmap_object bbmap_profile bbmap_boltprofile bbmap_layout bbmap_pipeline)

# Tools: the build tree's names get the major appended. Their RUNPATH names
# the LLVM library directory of this major. Where the libLLVM it holds is a
# link into a directory the dynamic linker searches anyway (Debian's
# /usr/lib/llvm-N/lib/libLLVM.so.N.M -> /usr/lib/<triple>/), the installed
# tools have none: they load the library from there, and dpkg-shlibdeps
# finds the package that owns it (BBMapPackage.cmake).
get_target_property(bbmap_libllvm LLVM LOCATION)
file(REAL_PATH ${bbmap_libllvm} bbmap_libllvm)
get_filename_component(bbmap_libllvm_dir ${bbmap_libllvm} DIRECTORY)
if(bbmap_libllvm_dir IN_LIST CMAKE_CXX_IMPLICIT_LINK_DIRECTORIES)
  set(BBMAP_INSTALL_KEEPS_RUNPATH OFF)
else()
  set(BBMAP_INSTALL_KEEPS_RUNPATH ON)
endif()
foreach(tool bbmap-dump bbmap-profile)
  install(PROGRAMS $<TARGET_FILE:${tool}>
    DESTINATION ${CMAKE_INSTALL_BINDIR}
    RENAME ${tool}-${BBMAP_LLVM_MAJOR}
    COMPONENT tools)
  if(NOT BBMAP_INSTALL_KEEPS_RUNPATH)
    install(CODE "file(RPATH_REMOVE FILE
      \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/${tool}-${BBMAP_LLVM_MAJOR}\")"
      COMPONENT tools)
  endif()
  if(BBMAP_UNVERSIONED_LINKS)
    set(link ${PROJECT_BINARY_DIR}/unversioned/${tool})
    file(MAKE_DIRECTORY ${PROJECT_BINARY_DIR}/unversioned)
    file(CREATE_LINK ${tool}-${BBMAP_LLVM_MAJOR} ${link} SYMBOLIC)
    install(FILES ${link} DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT tools)
  endif()
endforeach()

# The drop-in names of bbmap-profile (docs/profile.md, "Drop-in"); with
# BBMAP_UNVERSIONED_LINKS also perf2bolt-bbmap and create_llvm_prof-bbmap.
file(MAKE_DIRECTORY ${PROJECT_BINARY_DIR}/dropin)
foreach(name perf2bolt create_llvm_prof)
  set(names ${name}-bbmap-${BBMAP_LLVM_MAJOR})
  if(BBMAP_UNVERSIONED_LINKS)
    list(APPEND names ${name}-bbmap)
  endif()
  foreach(link ${names})
    file(CREATE_LINK bbmap-profile-${BBMAP_LLVM_MAJOR}
      ${PROJECT_BINARY_DIR}/dropin/${link} SYMBOLIC)
    install(FILES ${PROJECT_BINARY_DIR}/dropin/${link}
      DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT tools)
  endforeach()
endforeach()

install(FILES ${BBMAP_MAN_PAGES}
  DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT tools)

install(TARGETS bbmap-plugin
  LIBRARY DESTINATION ${BBMAP_INSTALL_LIBDIR} COMPONENT tools)

# The libraries, their headers and the package that finds them.
install(TARGETS ${BBMAP_LIBRARIES} bbmap_llvm_flags
  EXPORT BBMapTargets
  ARCHIVE DESTINATION ${BBMAP_INSTALL_LIBDIR} COMPONENT tools
  INCLUDES DESTINATION ${BBMAP_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/bbmap
  DESTINATION ${BBMAP_INSTALL_INCLUDEDIR} COMPONENT tools)
install(EXPORT BBMapTargets
  NAMESPACE BBMap::
  DESTINATION ${BBMAP_INSTALL_CMAKEDIR} COMPONENT tools)

configure_package_config_file(cmake/BBMapConfig.cmake.in
  ${PROJECT_BINARY_DIR}/package/BBMapConfig.cmake
  INSTALL_DESTINATION ${BBMAP_INSTALL_CMAKEDIR})
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/package/BBMapReleaseVersion.cmake
  COMPATIBILITY SameMinorVersion)
configure_file(cmake/BBMapConfigVersion.cmake.in
  ${PROJECT_BINARY_DIR}/package/BBMapConfigVersion.cmake @ONLY)
install(FILES
  ${PROJECT_BINARY_DIR}/package/BBMapConfig.cmake
  ${PROJECT_BINARY_DIR}/package/BBMapConfigVersion.cmake
  ${PROJECT_BINARY_DIR}/package/BBMapReleaseVersion.cmake
  DESTINATION ${BBMAP_INSTALL_CMAKEDIR} COMPONENT tools)
