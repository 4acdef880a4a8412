//===- plugin/Targets.h - the targets the map is tested on ------*- C++ -*-===//
//
// The plugin emits the map only for the ELF targets whose maps the lit
// suite checks against the in-tree map, byte for byte, with the code
// unchanged (test/plugin/cross-targets.ll). On any other target it changes
// nothing: the compiler runs as without it.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_PLUGIN_TARGETS_H
#define BBMAP_PLUGIN_TARGETS_H

#include <optional>
#include <string>

namespace llvm {
class Triple;
} // namespace llvm

namespace bbmap {

/// Why the plugin emits no map for \p T, or none if it covers \p T.
std::optional<std::string> uncoveredTarget(const llvm::Triple &T);

} // namespace bbmap

#endif // BBMAP_PLUGIN_TARGETS_H
