//===- plugin/Targets.cpp - the targets the map is tested on --------------===//
//
// One list of architectures, each with differential RUN lines in
// test/plugin/cross-targets.ll (Xtensa: cross-targets-xtensa.ll, LLVM 22
// only) at -O2 and -O0; docs/plugin.md lists them.
//
//===----------------------------------------------------------------------===//

#include "Targets.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace bbmap {

namespace {

constexpr Triple::ArchType Covered[] = {
    Triple::aarch64, Triple::aarch64_be,  Triple::amdgcn,
    Triple::arm,     Triple::armeb,       Triple::hexagon,
    Triple::lanai,   Triple::loongarch32, Triple::loongarch64,
    Triple::m68k,    Triple::mips,        Triple::mipsel,
    Triple::mips64,  Triple::mips64el,    Triple::ppc,
    Triple::ppcle,   Triple::ppc64,       Triple::ppc64le,
    Triple::riscv32, Triple::riscv64,     Triple::sparc,
    Triple::sparcel, Triple::sparcv9,     Triple::systemz,
    Triple::thumb,   Triple::thumbeb,     Triple::ve,
    Triple::x86,     Triple::x86_64,
};

bool isCovered(Triple::ArchType Arch) {
  // llc 19 cannot compile the test's code for Xtensa.
  if (Arch == Triple::xtensa)
    return LLVM_VERSION_MAJOR >= 22;
  return is_contained(Covered, Arch);
}

} // namespace

std::optional<std::string> uncoveredTarget(const Triple &T) {
  if (!T.isOSBinFormatELF())
    return ".llvm_bb_addr_map is ELF-only; no map is emitted for target '" +
           T.str() + "'";
  if (!isCovered(T.getArch()))
    return "the map is not tested on target '" + T.str() +
           "' (docs/plugin.md lists those it is); no map is emitted";
  return std::nullopt;
}

} // namespace bbmap
