//===- ELFMapReader.h - maps of an ELF file ---------------------*- C++ -*-===//
//
// The maps of one ELF file: finds the .llvm_bb_addr_map sections of an
// ELF32/64 LE/BE file, resolves their address fields (relocations in
// relocatable objects), decodes them with decodeBBAddrMap and names the
// functions the way llvm-readobj does, streaming or a section at a time.
//
// Threading: an ELFMapReader and the MapSectionReaders it opens may be used
// from several threads at once; create() reads all that their const members
// need.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_OBJECT_ELFMAPREADER_H
#define BBMAP_OBJECT_ELFMAPREADER_H

#include "bbmap/BBAddrMap/BBAddrMapDecoder.h"
#include "bbmap/Support/Warnings.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Error.h"
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace bbmap {

/// The per-file header llvm-readobj prints before any dump.
struct FileSummary {
  std::string FileName;
  std::string Format;
  std::string Arch;
  unsigned AddressBits = 0;
  /// DT_SONAME, or "<Not found>".
  std::string LoadName;
};

/// A basic-block address map section of the file.
struct MapSectionInfo {
  unsigned Index = 0;
  std::string Name;
  bool LegacyType = false;
};

/// A decoded map section. Functions and Names are parallel; a name is empty
/// when no function symbol matches the function address.
struct DecodedSection {
  MapSectionInfo Info;
  std::vector<FunctionMap> Functions;
  std::vector<std::string> Names;
};

/// A section header, as far as --verify needs it.
struct SectionFacts {
  std::string Name;
  uint32_t Type = 0;
  uint64_t Flags = 0;
  uint64_t Address = 0;
  uint64_t Size = 0;
  uint32_t Link = 0;
};

/// A defined .symtab symbol that is STT_FUNC, or STT_NOTYPE (the type of
/// the symbols of function parts such as `foo.cold` and `foo.__part.1`).
struct SymbolFacts {
  std::string Name;
  uint64_t Value = 0;
  uint64_t Size = 0;
  /// st_shndx.
  unsigned Section = 0;
  bool IsFunction = false;
};

/// The sections (by index) and symbols of a file, for --verify.
struct FileFacts {
  bool Relocatable = false;
  std::vector<SectionFacts> Sections;
  std::vector<SymbolFacts> Symbols;
};

/// What a relocation of a map section refers to.
struct RelocationTarget {
  /// st_shndx of the relocation's symbol.
  unsigned Section = 0;
  /// st_value of that symbol (0 for a section symbol; the label's offset
  /// when, as on RISC-V, the relocation refers to a local label).
  uint64_t SymbolValue = 0;
};

/// Offset within a map section -> what the relocation there refers to.
using RelocationTargets = std::map<uint64_t, RelocationTarget>;

/// Receives each function record of a section with its name (empty when no
/// function symbol matches its address). The record object is reused for
/// the next record, or may be moved away, as with decodeBBAddrMap.
using NamedFunctionHandler =
    llvm::function_ref<llvm::Error(FunctionMap &F, llvm::StringRef Name)>;

/// One map section, opened for decoding: its contents (decompressed if need
/// be) and, in relocatable objects, its relocations are read once. Decoding
/// is const: runs of records may be decoded on several threads at once.
class MapSectionReader {
public:
  virtual ~MapSectionReader();

  /// Decodes every record without keeping or naming it and cuts the section
  /// into runs of whole records, each starting a new run once the current
  /// one holds \p SpanBytes bytes or more. Fails on the first malformed
  /// record with the error forEachFunction would give.
  virtual llvm::Expected<std::vector<RecordSpan>>
  split(uint64_t SpanBytes) const = 0;
  /// Decodes the records of \p Span (by default, the whole section) in
  /// order, naming each function, without keeping the records. A
  /// DecodeError names the offending offset within the section; the records
  /// before it have been handed to \p OnFunction.
  virtual llvm::Error forEachFunction(NamedFunctionHandler OnFunction,
                                      RecordSpan Span = {}) const = 0;
};

/// Reads the basic-block address maps of one ELF object.
class ELFMapReader {
public:
  virtual ~ELFMapReader();

  /// Reads the section headers, the dynamic table, the relocation sections
  /// and the symbol table. Fails if \p Obj is not an ELF file or its section
  /// headers cannot be read; other problems are warnings().
  static llvm::Expected<std::unique_ptr<ELFMapReader>>
  create(const llvm::object::ObjectFile &Obj);

  /// What create() went past: a symbol table, string table, dynamic table,
  /// section or symbol name it could not read (each kind once). Names that
  /// cannot be read are "<?>", symbols that cannot be read name nothing.
  const WarningList &warnings() const { return Warnings; }

  virtual FileSummary summary() const = 0;
  /// Map sections (both section types) in the order llvm-readobj lists
  /// them: section header order, except that a map whose relocation
  /// section comes before it takes that section's place.
  virtual std::vector<MapSectionInfo> mapSections() const = 0;
  /// Reads what decoding a map section needs. The reader refers to this
  /// object.
  virtual llvm::Expected<std::unique_ptr<MapSectionReader>>
  open(const MapSectionInfo &Info) const = 0;
  /// Decodes one map section and names its functions. A DecodeError names
  /// the offending offset within the section.
  llvm::Expected<DecodedSection> decode(const MapSectionInfo &Info) const;
  /// Sections and symbols, for --verify.
  virtual FileFacts facts() const = 0;
  /// In a relocatable object, what each relocation applying to the map
  /// section refers to (empty for other files).
  virtual llvm::Expected<RelocationTargets>
  relocationTargets(const MapSectionInfo &Info) const = 0;

protected:
  WarningList Warnings;
};

} // namespace bbmap

#endif // BBMAP_OBJECT_ELFMAPREADER_H
