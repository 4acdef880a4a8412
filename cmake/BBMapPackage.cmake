# BBMapPackage.cmake - `cpack` in a build tree makes the Debian package
# bbmap-llvmN of what `cmake --install` installs (BBMapInstall.cmake) under
# /usr. Its Depends come from dpkg-shlibdeps (the libLLVM of this major and
# the C++ runtime); packages of different majors install side by side, as
# long as the tree is configured without BBMAP_UNVERSIONED_LINKS.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME bbmap-llvm${LLVM_VERSION_MAJOR})
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "bbmap maintainers <bbmap@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "basic-block address maps for a stock LLVM ${LLVM_VERSION_MAJOR}")
set(CPACK_PACKAGE_DESCRIPTION
  "bbmap-plugin.so makes the Debian clang, llc and lld of LLVM \
${LLVM_VERSION_MAJOR} emit .llvm_bb_addr_map; bbmap-dump-${LLVM_VERSION_MAJOR} \
decodes the maps, BOLT address translation and instrumentation profiles; \
bbmap-profile-${LLVM_VERSION_MAJOR} charges profiles to basic blocks, and \
takes perf2bolt's and create_llvm_prof's command lines as \
perf2bolt-bbmap-${LLVM_VERSION_MAJOR} and \
create_llvm_prof-bbmap-${LLVM_VERSION_MAJOR}. With the bbmap libraries, \
headers and CMake package BBMap.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The plugin is of use with the compiler of the same major; the libraries
# with its development files.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "clang-${LLVM_VERSION_MAJOR}")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "llvm-${LLVM_VERSION_MAJOR}-dev")
include(CPack)
