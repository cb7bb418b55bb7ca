// ptx.c: a measurement for docs/benchmarks.md (tests/bench/resident.sh), not part of the rules.
//
// What one LLVM process that stays resident would save on an MLIR module's per-chip compiles: it
// does the work of rules_gpu's per-chip `clang -cc1 -O3 -S -x ir -mlink-builtin-bitcode libdevice`
// (LLVM IR to PTX) for many (module, chip) pairs in one process, through LLVM's C API, and prints
// the CPU time of each compile and of its own start-up. resident.sh checks that the PTX is
// byte-identical to clang's, so the two do the same work.
//
//   ptx LIBDEVICE OUTDIR CHIP:PTXFEATURE:FILE.ll...    writes OUTDIR/FILE.CHIP.ptx
//
// The LLVM C API is declared here, not included: the build environment has LLVM's shared library
// (libLLVM.so.21.1, which exports the C API) but not its development headers. These are the
// declarations of llvm-c/{Core,IRReader,Linker,TargetMachine,Transforms/PassBuilder,Error}.h,
// with opaque pointers for LLVM's reference types.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

typedef struct LLVMOpaqueContext *LLVMContextRef;
typedef struct LLVMOpaqueModule *LLVMModuleRef;
typedef struct LLVMOpaqueMemoryBuffer *LLVMMemoryBufferRef;
typedef struct LLVMOpaqueValue *LLVMValueRef;
typedef struct LLVMOpaqueUse *LLVMUseRef;
typedef struct LLVMTarget *LLVMTargetRef;
typedef struct LLVMOpaqueTargetMachine *LLVMTargetMachineRef;
typedef struct LLVMOpaquePassBuilderOptions *LLVMPassBuilderOptionsRef;
typedef struct LLVMOpaqueError *LLVMErrorRef;
enum { LLVMInternalLinkage = 8, LLVMCodeGenLevelAggressive = 3, LLVMRelocDefault = 0, LLVMCodeModelDefault = 0, LLVMAssemblyFile = 0 };

LLVMContextRef LLVMContextCreate(void);
void LLVMContextDispose(LLVMContextRef);
int LLVMCreateMemoryBufferWithContentsOfFile(const char *, LLVMMemoryBufferRef *, char **);
int LLVMParseIRInContext(LLVMContextRef, LLVMMemoryBufferRef, LLVMModuleRef *, char **);
int LLVMLinkModules2(LLVMModuleRef, LLVMModuleRef);
LLVMValueRef LLVMGetFirstFunction(LLVMModuleRef);
LLVMValueRef LLVMGetNextFunction(LLVMValueRef);
LLVMValueRef LLVMGetNamedFunction(LLVMModuleRef, const char *);
int LLVMIsDeclaration(LLVMValueRef);
const char *LLVMGetValueName2(LLVMValueRef, size_t *);
LLVMUseRef LLVMGetFirstUse(LLVMValueRef);
void LLVMDeleteFunction(LLVMValueRef);
void LLVMSetLinkage(LLVMValueRef, int);
void LLVMInitializeNVPTXTargetInfo(void);
void LLVMInitializeNVPTXTarget(void);
void LLVMInitializeNVPTXTargetMC(void);
void LLVMInitializeNVPTXAsmPrinter(void);
int LLVMGetTargetFromTriple(const char *, LLVMTargetRef *, char **);
LLVMTargetMachineRef LLVMCreateTargetMachine(LLVMTargetRef, const char *, const char *, const char *, int, int, int);
void LLVMSetTargetMachineAsmVerbosity(LLVMTargetMachineRef, int);
void LLVMDisposeTargetMachine(LLVMTargetMachineRef);
LLVMPassBuilderOptionsRef LLVMCreatePassBuilderOptions(void);
void LLVMPassBuilderOptionsSetLoopVectorization(LLVMPassBuilderOptionsRef, int);
void LLVMPassBuilderOptionsSetSLPVectorization(LLVMPassBuilderOptionsRef, int);
void LLVMPassBuilderOptionsSetLoopInterleaving(LLVMPassBuilderOptionsRef, int);
void LLVMPassBuilderOptionsSetLoopUnrolling(LLVMPassBuilderOptionsRef, int);
void LLVMDisposePassBuilderOptions(LLVMPassBuilderOptionsRef);
LLVMErrorRef LLVMRunPasses(LLVMModuleRef, const char *, LLVMTargetMachineRef, LLVMPassBuilderOptionsRef);
char *LLVMGetErrorMessage(LLVMErrorRef);
int LLVMTargetMachineEmitToMemoryBuffer(LLVMTargetMachineRef, LLVMModuleRef, int, char **, LLVMMemoryBufferRef *);
const char *LLVMGetBufferStart(LLVMMemoryBufferRef);
size_t LLVMGetBufferSize(LLVMMemoryBufferRef);
void LLVMDisposeMemoryBuffer(LLVMMemoryBufferRef);

static const char triple[] = "nvptx64-nvidia-cuda";

// cpu is the process's CPU time so far (user + system), in milliseconds.
static double cpu(void) {
  struct rusage r;
  getrusage(RUSAGE_SELF, &r);
  return (r.ru_utime.tv_sec + r.ru_stime.tv_sec) * 1e3 + (r.ru_utime.tv_usec + r.ru_stime.tv_usec) / 1e3;
}

static void die(const char *what, const char *msg) {
  fprintf(stderr, "ptx: %s: %s\n", what, msg ? msg : "failed");
  exit(1);
}

static LLVMModuleRef parse(LLVMContextRef ctx, const char *file) {
  char *err = NULL;
  LLVMMemoryBufferRef b;
  LLVMModuleRef m;
  if (LLVMCreateMemoryBufferWithContentsOfFile(file, &b, &err) || LLVMParseIRInContext(ctx, b, &m, &err))
    die(file, err);
  return m;
}

// linkBuiltins links libdevice into m as clang's -mlink-builtin-bitcode does: only the functions
// m declares and what they call (Linker::LinkOnlyNeeded), then internalized, so that the optimiser
// drops what it inlines.
static void linkBuiltins(LLVMModuleRef m, LLVMModuleRef lib) {
  for (int dropped = 1; dropped;) {
    dropped = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(lib), next; f; f = next) {
      next = LLVMGetNextFunction(f);
      size_t n;
      if (LLVMIsDeclaration(f) || LLVMGetFirstUse(f) || LLVMGetNamedFunction(m, LLVMGetValueName2(f, &n)))
        continue;
      LLVMDeleteFunction(f);
      dropped = 1;
    }
  }
  // What m defines itself keeps its linkage; what lib brings becomes internal.
  size_t own = 0, cap = 16;
  const char **names = malloc(cap * sizeof *names);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    size_t n;
    if (LLVMIsDeclaration(f))
      continue;
    if (own == cap)
      names = realloc(names, (cap *= 2) * sizeof *names);
    names[own++] = strdup(LLVMGetValueName2(f, &n));
  }
  if (LLVMLinkModules2(m, lib))
    die("libdevice", "linking failed");
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    size_t n, i;
    const char *name = LLVMGetValueName2(f, &n);
    for (i = 0; i < own && strcmp(names[i], name) != 0; i++) {
    }
    if (!LLVMIsDeclaration(f) && i == own)
      LLVMSetLinkage(f, LLVMInternalLinkage);
  }
  for (size_t i = 0; i < own; i++)
    free((void *)names[i]);
  free(names);
}

// compile writes the PTX of the LLVM IR file src for chip (with PTX feature feature, +ptxNN), as
// clang -cc1 -triple nvptx64-nvidia-cuda -target-cpu CHIP -target-feature FEATURE -O3 -S -x ir
// writes it: clang's -O3 pipeline (loop unrolling and interleaving on, vectorisers off, as cc1
// without -vectorize-* runs it) and the back end at its aggressive level, with verbose assembly.
static void compile(const char *src, const char *libdevice, const char *chip, const char *feature, const char *out) {
  char *err = NULL;
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef m = parse(ctx, src);
  linkBuiltins(m, parse(ctx, libdevice));
  LLVMTargetRef t;
  if (LLVMGetTargetFromTriple(triple, &t, &err))
    die(triple, err);
  LLVMTargetMachineRef tm = LLVMCreateTargetMachine(t, triple, chip, feature, LLVMCodeGenLevelAggressive,
                                                    LLVMRelocDefault, LLVMCodeModelDefault);
  LLVMSetTargetMachineAsmVerbosity(tm, 1);
  LLVMPassBuilderOptionsRef o = LLVMCreatePassBuilderOptions();
  LLVMPassBuilderOptionsSetLoopVectorization(o, 0);
  LLVMPassBuilderOptionsSetSLPVectorization(o, 0);
  LLVMPassBuilderOptionsSetLoopInterleaving(o, 1);
  LLVMPassBuilderOptionsSetLoopUnrolling(o, 1);
  LLVMErrorRef e = LLVMRunPasses(m, "default<O3>", tm, o);
  if (e)
    die(src, LLVMGetErrorMessage(e));
  LLVMMemoryBufferRef ptx;
  if (LLVMTargetMachineEmitToMemoryBuffer(tm, m, LLVMAssemblyFile, &err, &ptx))
    die(src, err);
  FILE *f = fopen(out, "w");
  if (!f || fwrite(LLVMGetBufferStart(ptx), 1, LLVMGetBufferSize(ptx), f) != LLVMGetBufferSize(ptx) || fclose(f))
    die(out, "cannot write");
  LLVMDisposeMemoryBuffer(ptx);
  LLVMDisposePassBuilderOptions(o);
  LLVMDisposeTargetMachine(tm);
  LLVMContextDispose(ctx);
}

int main(int argc, char **argv) {
  if (argc < 4)
    die("usage", "ptx LIBDEVICE OUTDIR CHIP:PTXFEATURE:FILE.ll...");
  LLVMInitializeNVPTXTargetInfo();
  LLVMInitializeNVPTXTarget();
  LLVMInitializeNVPTXTargetMC();
  LLVMInitializeNVPTXAsmPrinter();
  printf("start %.0f\n", cpu());  // the loader, LLVM's static initialisers, the target's set-up
  for (int i = 3; i < argc; i++) {
    char chip[32], feature[32], out[4096];
    if (sscanf(argv[i], "%31[^:]:%31[^:]:", chip, feature) != 2)
      die(argv[i], "want CHIP:PTXFEATURE:FILE.ll");
    const char *file = argv[i] + strlen(chip) + strlen(feature) + 2;
    const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    snprintf(out, sizeof out, "%s/%.*s.%s.ptx", argv[2], (int)strcspn(base, "."), base, chip);
    double before = cpu();
    compile(file, argv[1], chip, feature, out);
    printf("compile %.0f\n", cpu() - before);
  }
  return 0;
}
