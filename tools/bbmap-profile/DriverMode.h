//===- DriverMode.h - which command line bbmap-profile speaks ---*- C++ -*-===//
//
// bbmap-profile stands in for the tools whose outputs it writes, as LLVM's
// tools do (llvm-objcopy as strip, llvm-ar as ranlib): called under a name
// that starts with "perf2bolt" or "create_llvm_prof", or given
// --driver-mode=perf2bolt|create_llvm_prof, it reads that tool's command
// line. docs/profile.md ("Drop-in") lists what each mode accepts.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_PROFILE_TOOL_DRIVERMODE_H
#define BBMAP_PROFILE_TOOL_DRIVERMODE_H

#include "bbmap/Pipeline/ProfilePipeline.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"

namespace bbmap {

enum class DriverMode { BBMapProfile, Perf2Bolt, CreateLLVMProf };

/// The mode \p Args ask for: the last --driver-mode=NAME (taken out of
/// \p Args), else the name Args[0] was invoked under.
llvm::Expected<DriverMode>
selectDriverMode(llvm::SmallVectorImpl<const char *> &Args);

/// Unregisters every command-line option but cl's own (--help, --version
/// and the like): what libLLVM and bbmap-profile's own command line
/// register. A drop-in mode calls it before it makes its options, so that
/// it knows only those of the tool it stands in for.
void keepOnlyGenericOptions();

/// Parses \p Args against the options registered (a drop-in mode's, after
/// keepOnlyGenericOptions) and \p Unknown, a cl::Sink list that collects
/// the options no registered one matches; --version prints bbmap's version
/// under \p ToolName. Anything wrong (an unknown
/// option, a missing or extra argument, a bad value) is reported in one
/// line under \p ToolName; returns false then.
bool parseDropInCommandLine(llvm::ArrayRef<const char *> Args,
                            llvm::StringRef Overview, llvm::StringRef ToolName,
                            const llvm::cl::list<std::string> &Unknown,
                            llvm::StringRef ModeName);

/// Prints "<ToolName>: error: <Msg>" and returns 1, the status perf2bolt
/// and create_llvm_prof exit with for a command line they refuse.
int refuse(llvm::StringRef ToolName, const llvm::Twine &Msg);

/// Runs \p Request, its messages under \p ToolName; returns the exit
/// status: 0, 2 for a request that does not hold together (RequestError),
/// 1 for any other error (printed in one message).
int runRequest(const ProfileRequest &Request, llvm::StringRef ToolName,
               ProfileOutcome &Outcome);

/// The drop-in modes; each returns the process's exit status.
int runPerf2BoltMode(llvm::ArrayRef<const char *> Args);
int runCreateLLVMProfMode(llvm::ArrayRef<const char *> Args);

} // namespace bbmap

#endif // BBMAP_PROFILE_TOOL_DRIVERMODE_H
