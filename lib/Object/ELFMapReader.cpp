//===- ELFMapReader.cpp - find and decode maps in an ELF file -------------===//
//
// ELFMapReader for the four ELF flavours (32/64-bit, little/big endian),
// built on LLVM's ELFObjectFile/ELFFile. Mirrors what llvm-readobj does:
// in relocatable objects an address field is replaced by the addend of the
// relocation at its offset (RELA; the relocation's symbol is ignored, as in
// llvm-readobj) or kept as the implicit addend (REL, which llvm-readobj
// cannot read), and a function is named after the first STT_FUNC symbol at
// its address (in a relocatable object: defined in the section the map is
// linked to).
//
//===----------------------------------------------------------------------===//

#include "bbmap/Object/ELFMapReader.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/Decompressor.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/DataExtractor.h"
#include "llvm/TargetParser/Triple.h"
#include <map>

using namespace llvm;
using namespace llvm::object;

namespace bbmap {

ELFMapReader::~ELFMapReader() = default;
MapSectionReader::~MapSectionReader() = default;

Expected<DecodedSection>
ELFMapReader::decode(const MapSectionInfo &Info) const {
  Expected<std::unique_ptr<MapSectionReader>> Sec = open(Info);
  if (!Sec)
    return Sec.takeError();
  DecodedSection D;
  D.Info = Info;
  if (Error E = (*Sec)->forEachFunction([&](FunctionMap &F, StringRef Name) {
        D.Functions.push_back(std::move(F));
        D.Names.push_back(Name.str());
        return Error::success();
      }))
    return E;
  return D;
}

namespace {

Error makeError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

/// Largest decompressed map section accepted (1 GiB).
constexpr uint64_t MaxDecompressedSize = uint64_t(1) << 30;

/// How the address fields of one map section are relocated: offset within
/// the section -> explicit addend, or std::nullopt for an implicit addend
/// (REL), which is the stored field itself.
struct RelocationTable {
  explicit RelocationTable(uint64_t SectionSize) : SectionSize(SectionSize) {}

  /// Relocations at or past the end of the section are dropped: no address
  /// field lies there, and DenseMap reserves the two largest keys.
  void add(uint64_t Offset, std::optional<uint64_t> Addend) {
    if (Offset < SectionSize)
      Addends[Offset] = Addend;
  }

  uint64_t SectionSize;
  DenseMap<uint64_t, std::optional<uint64_t>> Addends;
};

/// The index of the first symbol (in symbol table order) at each key: a
/// sorted array, filled once, then searched by every record of a section.
template <class Key> class FirstSymbolAt {
public:
  void add(Key K, uint32_t Index) { Entries.push_back({K, Index}); }
  /// Sorts, keeping the first symbol added at each key.
  void finish() {
    llvm::stable_sort(Entries, [](const Entry &A, const Entry &B) {
      return A.first < B.first;
    });
    Entries.erase(std::unique(Entries.begin(), Entries.end(),
                              [](const Entry &A, const Entry &B) {
                                return A.first == B.first;
                              }),
                  Entries.end());
  }
  std::optional<uint32_t> find(const Key &K) const {
    auto It = llvm::partition_point(
        Entries, [&](const Entry &E) { return E.first < K; });
    if (It == Entries.end() || It->first != K)
      return std::nullopt;
    return It->second;
  }

private:
  using Entry = std::pair<Key, uint32_t>;
  std::vector<Entry> Entries;
};

template <class ELFT> class SectionReaderImpl;

template <class ELFT> class ELFMapReaderImpl : public ELFMapReader {
public:
  using Elf_Shdr = typename ELFT::Shdr;

  /// Reads everything the const members use, so that they only read the
  /// reader; fails only if the section header table cannot be read.
  static Expected<std::unique_ptr<ELFMapReader>>
  create(const ELFObjectFile<ELFT> &ObjF);

  FileSummary summary() const override { return Summary; }
  std::vector<MapSectionInfo> mapSections() const override { return Maps; }
  Expected<std::unique_ptr<MapSectionReader>>
  open(const MapSectionInfo &Info) const override;
  FileFacts facts() const override;
  Expected<RelocationTargets>
  relocationTargets(const MapSectionInfo &Info) const override;

private:
  template <class> friend class SectionReaderImpl;
  ELFMapReaderImpl(const ELFObjectFile<ELFT> &ObjF,
                   typename ELFT::ShdrRange Sections)
      : ObjF(ObjF), Obj(ObjF.getELFFile()), Sections(Sections) {}

  // What create() reads, in order; each adds the problems it goes past to
  // Warnings.
  void readSectionNames();
  void readSummary();
  void indexRelocSections();
  void findMapSections();
  void buildSymbolIndex();

  bool isRelocatable() const { return Obj.getHeader().e_type == ELF::ET_REL; }
  std::string loadName();
  /// The dynamic table (PT_DYNAMIC, else SHT_DYNAMIC); empty if there is
  /// none or it does not lie within the file. ELFFile::dynamicEntries (LLVM
  /// 19) trusts PT_DYNAMIC's p_filesz and reads past the buffer.
  ArrayRef<typename ELFT::Dyn> dynamicEntries();
  std::optional<StringRef> dynamicStringTable();
  void sortLikeReadobj(std::vector<MapSectionInfo> &Maps) const;
  Expected<RelocationTable> relocationsFor(unsigned SecIndex,
                                           uint64_t SectionSize) const;
  struct RelocSection;
  /// Calls \p OnReloc(Rel, Addend) for each relocation of \p R, RELA, REL
  /// or CREL; Addend is std::nullopt for implicit addends.
  using RelocHandler =
      function_ref<Error(const typename ELFT::Rel &Rel,
                         std::optional<typename ELFT::uint> Addend)>;
  Error forEachRelocation(const RelocSection &R, RelocHandler OnReloc) const;
  Error readRelocations(const RelocSection &R, RelocationTable &T) const;
  Error checkCrelCount(const RelocSection &R) const;
  Expected<ArrayRef<uint8_t>> contents(const Elf_Shdr &Sec,
                                       SmallVectorImpl<uint8_t> &Buf) const;
  void checkSymbolName(const typename ELFT::Sym &Sym, uint32_t Index);
  Expected<uint64_t> symbolAddress(const typename ELFT::Sym &Sym,
                                   uint32_t Index) const;
  void addSymbol(const typename ELFT::Sym &Sym, uint32_t Index);
  StringRef functionName(uint64_t Address,
                         std::optional<unsigned> LinkedSec) const;

  const ELFObjectFile<ELFT> &ObjF;
  const ELFFile<ELFT> &Obj;
  typename ELFT::ShdrRange Sections;
  /// The name of each section, "<?>" where it cannot be read.
  std::vector<StringRef> SectionNames;
  FileSummary Summary;
  std::vector<MapSectionInfo> Maps;
  /// The defined STT_FUNC symbols of .symtab: the first one at each address
  /// (linked files) and at each address of each section (relocatable files).
  struct SymbolIndex {
    typename ELFT::SymRange Syms;
    FirstSymbolAt<uint64_t> ByAddress;
    FirstSymbolAt<std::pair<uint64_t, uint64_t>> BySectionAddress;
  };
  SymbolIndex Symbols;
  /// The first SHT_SYMTAB section, and whether its symbols could be read.
  const Elf_Shdr *SymTab = nullptr;
  bool SymbolsRead = false;
  /// The string table of SymTab, if valid.
  std::optional<StringRef> StrTab;
  /// A relocation section and its index.
  struct RelocSection {
    unsigned Index;
    const Elf_Shdr *Sec;
  };
  /// Section index -> the relocation sections that apply to it.
  std::map<unsigned, SmallVector<RelocSection, 1>> RelocSections;
};

template <class ELFT>
Expected<std::unique_ptr<ELFMapReader>>
ELFMapReaderImpl<ELFT>::create(const ELFObjectFile<ELFT> &ObjF) {
  Expected<typename ELFT::ShdrRange> Sections = ObjF.getELFFile().sections();
  if (!Sections)
    return Sections.takeError();
  std::unique_ptr<ELFMapReaderImpl> R(new ELFMapReaderImpl(ObjF, *Sections));
  R->readSectionNames();
  R->readSummary();
  R->indexRelocSections();
  R->findMapSections();
  R->buildSymbolIndex();
  return R;
}

template <class ELFT> void ELFMapReaderImpl<ELFT>::readSectionNames() {
  for (const Elf_Shdr &Sec : Sections) {
    Expected<StringRef> Name = Obj.getSectionName(Sec);
    if (!Name)
      Warnings.add("section name",
                   "unable to read the name of section [" +
                       Twine(SectionNames.size()) + "]",
                   Name.takeError());
    SectionNames.push_back(Name ? *Name : "<?>");
  }
}

template <class ELFT> void ELFMapReaderImpl<ELFT>::readSummary() {
  Summary.FileName = ObjF.getFileName().str();
  Summary.Format = ObjF.getFileFormatName().str();
  Summary.Arch = Triple::getArchTypeName(ObjF.getArch()).str();
  Summary.AddressBits = 8 * ObjF.getBytesInAddress();
  Summary.LoadName = loadName();
}

template <class ELFT>
ArrayRef<typename ELFT::Dyn> ELFMapReaderImpl<ELFT>::dynamicEntries() {
  using Elf_Dyn = typename ELFT::Dyn;
  Expected<typename ELFT::PhdrRange> Phdrs = Obj.program_headers();
  if (!Phdrs) {
    Warnings.add("program headers", "unable to read the program headers",
                 Phdrs.takeError());
    return {};
  }
  for (const typename ELFT::Phdr &P : *Phdrs) {
    if (P.p_type != ELF::PT_DYNAMIC)
      continue;
    uint64_t FileSize = Obj.getBufSize();
    if (P.p_offset > FileSize || P.p_filesz > FileSize - P.p_offset) {
      Warnings.add("PT_DYNAMIC", "PT_DYNAMIC segment offset (0x" +
                                     Twine::utohexstr(P.p_offset) +
                                     ") + file size (0x" +
                                     Twine::utohexstr(P.p_filesz) +
                                     ") exceeds the size of the file (0x" +
                                     Twine::utohexstr(FileSize) + ")");
      break;
    }
    const uint8_t *Start = Obj.base() + P.p_offset;
    if (reinterpret_cast<uintptr_t>(Start) % alignof(Elf_Dyn) ||
        P.p_filesz < sizeof(Elf_Dyn))
      break;
    return ArrayRef(reinterpret_cast<const Elf_Dyn *>(Start),
                    P.p_filesz / sizeof(Elf_Dyn));
  }
  for (const Elf_Shdr &Sec : Sections) {
    if (Sec.sh_type != ELF::SHT_DYNAMIC)
      continue;
    Expected<ArrayRef<Elf_Dyn>> Dyn =
        Obj.template getSectionContentsAsArray<Elf_Dyn>(Sec);
    if (Dyn)
      return *Dyn;
    Warnings.add("dynamic section", "unable to read the dynamic section",
                 Dyn.takeError());
    break;
  }
  return {};
}

template <class ELFT>
std::optional<StringRef> ELFMapReaderImpl<ELFT>::dynamicStringTable() {
  std::optional<uint64_t> Addr, Size;
  for (const typename ELFT::Dyn &D : dynamicEntries()) {
    if (D.d_tag == ELF::DT_STRTAB)
      Addr = D.getPtr();
    else if (D.d_tag == ELF::DT_STRSZ)
      Size = D.getVal();
  }
  if (!Addr || !Size)
    return std::nullopt;
  Expected<const uint8_t *> Ptr = Obj.toMappedAddr(*Addr);
  if (!Ptr) {
    Warnings.add("DT_STRTAB", "unable to map DT_STRTAB", Ptr.takeError());
    return std::nullopt;
  }
  uint64_t Offset = *Ptr - Obj.base();
  if (Offset > Obj.getBufSize() || *Size > Obj.getBufSize() - Offset)
    return std::nullopt;
  return StringRef(reinterpret_cast<const char *>(*Ptr), *Size);
}

template <class ELFT> std::string ELFMapReaderImpl<ELFT>::loadName() {
  std::optional<uint64_t> SOName;
  for (const typename ELFT::Dyn &D : dynamicEntries())
    if (D.d_tag == ELF::DT_SONAME)
      SOName = D.getVal();
  if (!SOName)
    return "<Not found>";
  std::optional<StringRef> StrTab = dynamicStringTable();
  if (!StrTab || *SOName >= StrTab->size())
    return "<?>";
  return StrTab->drop_front(*SOName).split('\0').first.str();
}

template <class ELFT> void ELFMapReaderImpl<ELFT>::indexRelocSections() {
  unsigned Index = 0;
  for (const Elf_Shdr &Sec : Sections) {
    unsigned I = Index++;
    if (Sec.sh_type == ELF::SHT_RELA || Sec.sh_type == ELF::SHT_REL ||
        Sec.sh_type == ELF::SHT_CREL)
      RelocSections[Sec.sh_info].push_back({I, &Sec});
  }
}

template <class ELFT> void ELFMapReaderImpl<ELFT>::findMapSections() {
  unsigned Index = 0;
  for (const Elf_Shdr &Sec : Sections) {
    unsigned I = Index++;
    if (Sec.sh_type != SHT_BB_ADDR_MAP && Sec.sh_type != SHT_BB_ADDR_MAP_V0)
      continue;
    MapSectionInfo Info;
    Info.Index = I;
    Info.LegacyType = Sec.sh_type == SHT_BB_ADDR_MAP_V0;
    Info.Name = SectionNames[I].str();
    Maps.push_back(std::move(Info));
  }
  sortLikeReadobj(Maps);
}

template <class ELFT>
void ELFMapReaderImpl<ELFT>::sortLikeReadobj(
    std::vector<MapSectionInfo> &Maps) const {
  // llvm-readobj lists a map section where it first meets the section or a
  // relocation section applying to it; only a relocation section placed
  // before its map changes the section order.
  auto Key = [&](const MapSectionInfo &Info) {
    unsigned First = Info.Index;
    auto It = RelocSections.find(Info.Index);
    if (It != RelocSections.end())
      for (const RelocSection &R : It->second)
        First = std::min(First, R.Index);
    return First;
  };
  llvm::stable_sort(Maps,
                    [&](const MapSectionInfo &A, const MapSectionInfo &B) {
                      return Key(A) < Key(B);
                    });
}

template <class ELFT>
Error ELFMapReaderImpl<ELFT>::forEachRelocation(const RelocSection &R,
                                                RelocHandler OnReloc) const {
  auto Each = [&](const auto &Relocs) -> Error {
    for (const auto &Rel : Relocs) {
      std::optional<typename ELFT::uint> Addend;
      if constexpr (std::is_same_v<std::decay_t<decltype(Rel)>,
                                   typename ELFT::Rela>)
        Addend = Rel.r_addend;
      typename ELFT::Rel Plain;
      Plain.r_offset = Rel.r_offset;
      Plain.r_info = Rel.r_info;
      if (Error E = OnReloc(Plain, Addend))
        return E;
    }
    return Error::success();
  };
  const Elf_Shdr &RelSec = *R.Sec;
  if (RelSec.sh_type == ELF::SHT_RELA) {
    Expected<typename ELFT::RelaRange> Relas = Obj.relas(RelSec);
    return Relas ? Each(*Relas) : Relas.takeError();
  }
  if (RelSec.sh_type == ELF::SHT_REL) {
    Expected<typename ELFT::RelRange> Rels = Obj.rels(RelSec);
    return Rels ? Each(*Rels) : Rels.takeError();
  }
  // SHT_CREL: decodes to explicit or implicit addends.
  if (Error E = checkCrelCount(R))
    return E;
  auto Crels = Obj.crels(RelSec);
  if (!Crels)
    return Crels.takeError();
  if (Error E = Each(Crels->first))
    return E;
  return Each(Crels->second);
}

template <class ELFT>
Error ELFMapReaderImpl<ELFT>::readRelocations(const RelocSection &R,
                                              RelocationTable &T) const {
  return forEachRelocation(R, [&](const typename ELFT::Rel &Rel,
                                  std::optional<typename ELFT::uint> Addend) {
    // llvm-readobj 19 and 22 keep only the low 32 bits of the addend;
    // so do we, to print the same addresses.
    T.add(Rel.r_offset,
          Addend ? std::optional<uint64_t>(static_cast<uint32_t>(*Addend))
                 : std::nullopt);
    return Error::success();
  });
}

template <class ELFT>
Error ELFMapReaderImpl<ELFT>::checkCrelCount(const RelocSection &R) const {
  // ELFFile::crels sizes its result by the header's count before decoding
  // an entry. Every entry takes at least one byte: bound the count first.
  Expected<ArrayRef<uint8_t>> Content = Obj.getSectionContents(*R.Sec);
  if (!Content)
    return Content.takeError();
  DataExtractor Data(toStringRef(*Content), /*IsLittleEndian=*/true,
                     /*AddressSize=*/8);
  DataExtractor::Cursor Cur(0);
  uint64_t Count = Data.getULEB128(Cur) / 8;
  if (!Cur)
    return makeError("CREL section [index " + Twine(R.Index) +
                     "]: " + toString(Cur.takeError()));
  uint64_t Left = Content->size() - Cur.tell();
  if (Count > Left)
    return makeError("CREL section [index " + Twine(R.Index) +
                     "]: " + Twine(Count) + " relocations need at least " +
                     Twine(Count) + " bytes, " + Twine(Left) + " left");
  return Error::success();
}

template <class ELFT>
Expected<RelocationTable>
ELFMapReaderImpl<ELFT>::relocationsFor(unsigned SecIndex,
                                       uint64_t SectionSize) const {
  auto It = RelocSections.find(SecIndex);
  if (It == RelocSections.end())
    return makeError("no relocation section applies to it in a relocatable "
                     "object");
  RelocationTable T(SectionSize);
  for (const RelocSection &R : It->second)
    if (Error E = readRelocations(R, T))
      return E;
  return T;
}

template <class ELFT>
Expected<ArrayRef<uint8_t>>
ELFMapReaderImpl<ELFT>::contents(const Elf_Shdr &Sec,
                                 SmallVectorImpl<uint8_t> &Buf) const {
  Expected<ArrayRef<uint8_t>> Raw = Obj.getSectionContents(Sec);
  if (!Raw || !(Sec.sh_flags & ELF::SHF_COMPRESSED))
    return Raw;
  // SHF_COMPRESSED (zlib or zstd), decompressed as llvm-readobj 22 does.
  Expected<Decompressor> D = Decompressor::create(
      "", toStringRef(*Raw), ELFT::Endianness == llvm::endianness::little,
      ELFT::Is64Bits);
  if (!D)
    return D.takeError();
  // The size comes from the compression header: bound it before allocating.
  if (D->getDecompressedSize() > MaxDecompressedSize)
    return makeError("compressed section claims 0x" +
                     Twine::utohexstr(D->getDecompressedSize()) +
                     " bytes of data, more than bbmap-dump accepts (0x" +
                     Twine::utohexstr(MaxDecompressedSize) + ")");
  if (Error E = D->resizeAndDecompress(Buf))
    return E;
  return ArrayRef<uint8_t>(Buf.data(), Buf.size());
}

/// An opened map section of an ELFMapReaderImpl.
template <class ELFT> class SectionReaderImpl : public MapSectionReader {
public:
  explicit SectionReaderImpl(const ELFMapReaderImpl<ELFT> &File) : File(File) {}

  Expected<std::vector<RecordSpan>> split(uint64_t SpanBytes) const override;
  Error forEachFunction(NamedFunctionHandler OnFunction,
                        RecordSpan Span) const override;

  const ELFMapReaderImpl<ELFT> &File;
  SmallVector<uint8_t, 0> Decompressed;
  ArrayRef<uint8_t> Contents;
  DecodeOptions Opts;
  /// Relocatable objects only.
  std::optional<RelocationTable> Relocs;
  /// In a relocatable object, the section the map is linked to (where its
  /// function symbols are defined).
  std::optional<unsigned> LinkedSec;

private:
  Error decode(FunctionHandler OnFunction, RecordSpan Span) const;
};

template <class ELFT>
Error SectionReaderImpl<ELFT>::decode(FunctionHandler OnFunction,
                                      RecordSpan Span) const {
  auto Resolve = [&](uint64_t Offset, uint64_t Stored) -> Expected<uint64_t> {
    if (!Relocs)
      return Stored;
    auto It = Relocs->Addends.find(Offset);
    if (It == Relocs->Addends.end())
      return makeError("no relocation at this offset");
    return It->second.value_or(Stored);
  };
  return decodeBBAddrMap(Contents, Opts, Resolve, OnFunction, Span);
}

template <class ELFT>
Expected<std::vector<RecordSpan>>
SectionReaderImpl<ELFT>::split(uint64_t SpanBytes) const {
  std::vector<RecordSpan> Spans;
  if (Error E = decode(
          [&](const FunctionMap &F) {
            if (Spans.empty() ||
                F.SectionOffset - Spans.back().Begin >= SpanBytes) {
              if (!Spans.empty())
                Spans.back().End = F.SectionOffset;
              Spans.push_back({F.SectionOffset, Contents.size()});
            }
            return Error::success();
          },
          {}))
    return E;
  return Spans;
}

template <class ELFT>
Error SectionReaderImpl<ELFT>::forEachFunction(NamedFunctionHandler OnFunction,
                                               RecordSpan Span) const {
  return decode(
      [&](FunctionMap &F) {
        return OnFunction(F, File.functionName(F.address(), LinkedSec));
      },
      Span);
}

template <class ELFT>
Expected<std::unique_ptr<MapSectionReader>>
ELFMapReaderImpl<ELFT>::open(const MapSectionInfo &Info) const {
  Expected<const Elf_Shdr *> SecOrErr = Obj.getSection(Info.Index);
  if (!SecOrErr)
    return SecOrErr.takeError();
  const Elf_Shdr &Sec = **SecOrErr;
  auto Reader = std::make_unique<SectionReaderImpl<ELFT>>(*this);
  Expected<ArrayRef<uint8_t>> Contents = contents(Sec, Reader->Decompressed);
  if (!Contents)
    return Contents.takeError();
  Reader->Contents = *Contents;
  if (isRelocatable()) {
    // Functions are named by the symbols of the linked-to text section, as
    // llvm-readobj does; it refuses the section if that does not exist.
    if (Expected<const Elf_Shdr *> Linked = Obj.getSection(Sec.sh_link);
        !Linked)
      return makeError("sh_link: " + toString(Linked.takeError()));
    Expected<RelocationTable> T = relocationsFor(Info.Index, Contents->size());
    if (!T)
      return T.takeError();
    Reader->Relocs = std::move(*T);
    Reader->LinkedSec = Sec.sh_link;
  }
  Reader->Opts.IsLittleEndian = ELFT::Endianness == llvm::endianness::little;
  Reader->Opts.AddressSize = ELFT::Is64Bits ? 8 : 4;
  Reader->Opts.LegacyType = Info.LegacyType;
  return Reader;
}

template <class ELFT> FileFacts ELFMapReaderImpl<ELFT>::facts() const {
  FileFacts F;
  F.Relocatable = isRelocatable();
  unsigned Index = 0;
  for (const Elf_Shdr &Sec : Sections)
    F.Sections.push_back({SectionNames[Index++].str(), Sec.sh_type,
                          Sec.sh_flags, Sec.sh_addr, Sec.sh_size, Sec.sh_link});
  if (!SymbolsRead || !StrTab)
    return F;
  Index = 0;
  for (const typename ELFT::Sym &Sym : Symbols.Syms) {
    uint32_t I = Index++;
    bool IsFunction = Sym.getType() == ELF::STT_FUNC;
    bool IsPart = Sym.getType() == ELF::STT_NOTYPE;
    if (Sym.st_shndx == ELF::SHN_UNDEF || Sym.st_shndx >= ELF::SHN_LORESERVE ||
        !(IsFunction || IsPart))
      continue;
    Expected<StringRef> Name = Sym.getName(*StrTab);
    // As for naming: without the Thumb/microMIPS bit of function symbols.
    Expected<uint64_t> Value = ObjF.toSymbolRef(SymTab, I).getAddress();
    if (!Name || !Value) {
      // create() warned of this kind of problem (buildSymbolIndex).
      consumeError(Name.takeError());
      consumeError(Value.takeError());
      continue;
    }
    F.Symbols.push_back(
        {Name->str(), *Value, Sym.st_size, Sym.st_shndx, IsFunction});
  }
  return F;
}

template <class ELFT>
Expected<RelocationTargets>
ELFMapReaderImpl<ELFT>::relocationTargets(const MapSectionInfo &Info) const {
  RelocationTargets Targets;
  auto It = RelocSections.find(Info.Index);
  if (!isRelocatable() || It == RelocSections.end())
    return Targets;
  for (const RelocSection &R : It->second) {
    Expected<const Elf_Shdr *> RelSymTab = Obj.getSection(R.Sec->sh_link);
    if (!RelSymTab)
      return RelSymTab.takeError();
    if (Error E = forEachRelocation(
            R,
            [&](const typename ELFT::Rel &Rel,
                std::optional<typename ELFT::uint>) -> Error {
              Expected<const typename ELFT::Sym *> Sym =
                  Obj.getRelocationSymbol(Rel, *RelSymTab);
              if (!Sym)
                return Sym.takeError();
              if (*Sym)
                Targets[Rel.r_offset] = {(*Sym)->st_shndx, (*Sym)->st_value};
              return Error::success();
            }))
      return E;
  }
  return Targets;
}

template <class ELFT> void ELFMapReaderImpl<ELFT>::buildSymbolIndex() {
  for (const Elf_Shdr &Sec : Sections)
    if (Sec.sh_type == ELF::SHT_SYMTAB) {
      SymTab = &Sec;
      break;
    }
  if (!SymTab)
    return;
  Expected<typename ELFT::SymRange> Syms = Obj.symbols(SymTab);
  if (!Syms)
    return Warnings.add("symbol table", "unable to read the symbol table",
                        Syms.takeError());
  SymbolsRead = true;
  Symbols.Syms = *Syms;
  if (Expected<StringRef> Table = Obj.getStringTableForSymtab(*SymTab))
    StrTab = *Table;
  else
    Warnings.add("string table",
                 "unable to read the string table of the symbol table",
                 Table.takeError());
  // Every symbol facts() reads is checked here, so that the problems are
  // warned of once, whoever reads the symbols.
  uint32_t Index = 0;
  for (const typename ELFT::Sym &Sym : *Syms) {
    uint32_t I = Index++;
    bool IsFunction = Sym.getType() == ELF::STT_FUNC;
    if (Sym.st_shndx == ELF::SHN_UNDEF ||
        !(IsFunction || Sym.getType() == ELF::STT_NOTYPE))
      continue;
    checkSymbolName(Sym, I);
    if (IsFunction)
      addSymbol(Sym, I);
    else if (isRelocatable() && Sym.st_shndx < ELF::SHN_LORESERVE)
      if (Expected<uint64_t> A = ObjF.toSymbolRef(SymTab, I).getAddress(); !A)
        Warnings.add("symbol address",
                     "unable to read the address of symbol with index " +
                         Twine(I),
                     A.takeError());
  }
  Symbols.ByAddress.finish();
  Symbols.BySectionAddress.finish();
}

template <class ELFT>
void ELFMapReaderImpl<ELFT>::checkSymbolName(const typename ELFT::Sym &Sym,
                                             uint32_t I) {
  // getName fails only for an st_name past the table: testing that first
  // spares measuring every name.
  if (StrTab && Sym.st_name >= StrTab->size())
    Warnings.add("symbol name",
                 "unable to read the name of symbol with index " + Twine(I),
                 Sym.getName(*StrTab).takeError());
}

template <class ELFT>
Expected<uint64_t>
ELFMapReaderImpl<ELFT>::symbolAddress(const typename ELFT::Sym &Sym,
                                      uint32_t I) const {
  // What ELFSymbolRef::getAddress computes for a defined function symbol of
  // a linked file, without its per-symbol checks of the section table: the
  // value, less the ARM/Thumb or microMIPS mode bit.
  if (isRelocatable() || Sym.st_shndx == ELF::SHN_COMMON)
    return ObjF.toSymbolRef(SymTab, I).getAddress();
  uint64_t Value = Sym.st_value;
  unsigned Machine = Obj.getHeader().e_machine;
  if (Sym.st_shndx != ELF::SHN_ABS &&
      (Machine == ELF::EM_ARM || Machine == ELF::EM_MIPS))
    Value &= ~uint64_t(1);
  return Value;
}

template <class ELFT>
void ELFMapReaderImpl<ELFT>::addSymbol(const typename ELFT::Sym &ESym,
                                       uint32_t I) {
  Expected<uint64_t> Addr = symbolAddress(ESym, I);
  if (!Addr)
    return Warnings.add("symbol address",
                        "unable to read the address of symbol with index " +
                            Twine(I),
                        Addr.takeError());
  // The first symbol in table order wins, as in llvm-readobj.
  Symbols.ByAddress.add(*Addr, I);
  // Only relocatable files name functions by section and address.
  if (!isRelocatable())
    return;
  ELFSymbolRef Sym = ObjF.toSymbolRef(SymTab, I);
  Expected<section_iterator> Sec = Sym.getSection();
  if (!Sec)
    return Warnings.add("symbol section",
                        "unable to read the section of symbol with index " +
                            Twine(I),
                        Sec.takeError());
  if (*Sec != ObjF.section_end())
    Symbols.BySectionAddress.add({(*Sec)->getIndex(), *Addr}, I);
}

template <class ELFT>
StringRef
ELFMapReaderImpl<ELFT>::functionName(uint64_t Address,
                                     std::optional<unsigned> LinkedSec) const {
  std::optional<uint32_t> Index =
      LinkedSec ? Symbols.BySectionAddress.find({*LinkedSec, Address})
                : Symbols.ByAddress.find(Address);
  if (!Index)
    return "";
  if (!StrTab)
    return "<?>";
  Expected<StringRef> Name = Symbols.Syms[*Index].getName(*StrTab);
  if (!Name) {
    // create() warned of names past the string table (checkSymbolName).
    consumeError(Name.takeError());
    return "<?>";
  }
  return *Name;
}

template <class ELFT>
Expected<std::unique_ptr<ELFMapReader>>
makeReader(const ELFObjectFileBase &Obj) {
  return ELFMapReaderImpl<ELFT>::create(cast<ELFObjectFile<ELFT>>(Obj));
}

} // namespace

Expected<std::unique_ptr<ELFMapReader>>
ELFMapReader::create(const ObjectFile &Obj) {
  if (const auto *O = dyn_cast<ELF32LEObjectFile>(&Obj))
    return makeReader<ELF32LE>(*O);
  if (const auto *O = dyn_cast<ELF32BEObjectFile>(&Obj))
    return makeReader<ELF32BE>(*O);
  if (const auto *O = dyn_cast<ELF64LEObjectFile>(&Obj))
    return makeReader<ELF64LE>(*O);
  if (const auto *O = dyn_cast<ELF64BEObjectFile>(&Obj))
    return makeReader<ELF64BE>(*O);
  return makeError("not an ELF object file");
}

} // namespace bbmap
