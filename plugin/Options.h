//===- plugin/Options.h - bbmap plugin configuration ------------*- C++ -*-===//
//
// What the plugin emits, resolved from its command-line options (-bbmap-*,
// given to llc directly or through clang's -mllvm) and the BBMAP_OPTIONS
// environment variable. The command line wins over the environment.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_PLUGIN_OPTIONS_H
#define BBMAP_PLUGIN_OPTIONS_H

#include "bbmap/Format.h"
#include "llvm/Support/Error.h"

namespace bbmap {

/// The map encoding the host compiler writes itself: 2 for LLVM 19-21, 5 from
/// LLVM 22 on.
Encoding nativeEncoding();

/// The resolved configuration of one AsmPrinter.
struct MapOptions {
  bool Enabled = true;
  Encoding Enc = nativeEncoding();
  /// feature::FuncEntryCount | BBFreq | BrProb, as requested.
  uint16_t PGOFeatures = 0;
  /// Write block counts but no block entries (feature::OmitBBEntries).
  bool SkipBBEntries = false;
  /// Write a hash per block (feature::BBHash).
  bool BlockHash = false;
};

/// Registers the -bbmap-* options with LLVM's command-line registry. Returns
/// false (registering nothing) if another copy of the plugin already did.
bool registerOptions();

/// Reads the options and BBMAP_OPTIONS and checks that they fit together.
llvm::Expected<MapOptions> resolveOptions();

} // namespace bbmap

#endif // BBMAP_PLUGIN_OPTIONS_H
