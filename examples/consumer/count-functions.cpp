//===- count-functions.cpp - functions in a binary's maps -----------------===//
//
// Decodes every .llvm_bb_addr_map section of one ELF file with the installed
// bbmap library and prints how many function records they hold.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Object/ELFMapReader.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

int main(int argc, char **argv) {
  if (argc != 2) {
    errs() << "usage: count-functions <ELF file>\n";
    return 2;
  }
  auto Binary = object::ObjectFile::createObjectFile(argv[1]);
  if (!Binary) {
    errs() << toString(Binary.takeError()) << "\n";
    return 1;
  }
  auto Reader = bbmap::ELFMapReader::create(*Binary->getBinary());
  if (!Reader) {
    errs() << toString(Reader.takeError()) << "\n";
    return 1;
  }
  size_t Functions = 0;
  for (const bbmap::MapSectionInfo &Section : (*Reader)->mapSections()) {
    auto Decoded = (*Reader)->decode(Section);
    if (!Decoded) {
      errs() << toString(Decoded.takeError()) << "\n";
      return 1;
    }
    Functions += Decoded->Functions.size();
  }
  outs() << "functions: " << Functions << "\n";
  return 0;
}
