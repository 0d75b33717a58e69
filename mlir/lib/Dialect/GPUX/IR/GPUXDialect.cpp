// The GPUX dialect: type, ops, their custom syntax and verifiers.
#include "imex/Dialect/GPUX/IR/GPUXDialect.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace imex::gpux;

#include "imex/Dialect/GPUX/IR/GPUXOpsDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "imex/Dialect/GPUX/IR/GPUXOpsTypes.cpp.inc"

void GPUXDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "imex/Dialect/GPUX/IR/GPUXOpsTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "imex/Dialect/GPUX/IR/GPUXOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Custom syntax: `async [%dep, ...]` as upstream's GPU ops spell it, and the
// launch arguments as `args(%value : type, ...)`.

static ParseResult
parseAsyncDependencies(OpAsmParser &parser, Type &asyncTokenType,
                       SmallVectorImpl<OpAsmParser::UnresolvedOperand> &deps) {
  SMLoc loc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalKeyword("async"))) {
    if (parser.getNumResults() == 0)
      return parser.emitError(loc, "needs to be named when marked 'async'");
    asyncTokenType = gpu::AsyncTokenType::get(parser.getContext());
  }
  return parser.parseOperandList(deps, OpAsmParser::Delimiter::OptionalSquare);
}

static void printAsyncDependencies(OpAsmPrinter &printer, Operation *,
                                   Type asyncTokenType,
                                   OperandRange deps) {
  // A trailing space, and none before what follows (`` in the formats): the
  // next token may be the stream operand or a parenthesis.
  if (asyncTokenType)
    printer << "async ";
  if (deps.empty())
    return;
  printer << '[';
  llvm::interleaveComma(deps, printer);
  printer << "] ";
}

static ParseResult
parseLaunchArgs(OpAsmParser &parser,
                SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands,
                SmallVectorImpl<Type> &types) {
  if (failed(parser.parseOptionalKeyword("args")))
    return success();
  auto parseOne = [&]() -> ParseResult {
    return failure(parser.parseOperand(operands.emplace_back()) ||
                   parser.parseColonType(types.emplace_back()));
  };
  return parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Paren, parseOne,
                                        " in argument list");
}

static void printLaunchArgs(OpAsmPrinter &printer, Operation *,
                            OperandRange operands, TypeRange types) {
  if (operands.empty())
    return;
  printer << "args(";
  llvm::interleaveComma(llvm::zip(operands, types), printer, [&](auto pair) {
    auto [operand, type] = pair;
    printer << operand << " : " << type;
  });
  printer << ")";
}

//===----------------------------------------------------------------------===//
// Verifiers.

LogicalResult AllocOp::verify() {
  auto type = llvm::cast<MemRefType>(getMemref().getType());
  if (getDynamicSizes().size() != size_t(type.getNumDynamicDims()))
    return emitOpError("has ")
           << getDynamicSizes().size() << " dynamic size operand(s) but "
           << type << " has " << type.getNumDynamicDims()
           << " dynamic dimension(s)";
  unsigned symbols = type.getLayout().getAffineMap().getNumSymbols();
  if (getSymbolOperands().size() != symbols)
    return emitOpError("has ")
           << getSymbolOperands().size()
           << " symbol operand(s) but the layout of " << type << " has "
           << symbols << " symbol(s)";
  return success();
}

LogicalResult MemcpyOp::verify() {
  auto dst = llvm::cast<MemRefType>(getDst().getType());
  auto src = llvm::cast<MemRefType>(getSrc().getType());
  if (dst.getElementType() != src.getElementType())
    return emitOpError("copies ") << src.getElementType() << " elements into "
                                  << dst.getElementType() << " elements";
  if (dst.getShape() != src.getShape())
    return emitOpError("copies between memrefs of different shapes (")
           << src << " to " << dst << ")";
  return success();
}

LogicalResult MemsetOp::verify() {
  auto dst = llvm::cast<MemRefType>(getDst().getType());
  if (dst.getElementType() != getValue().getType())
    return emitOpError("sets ") << dst.getElementType() << " elements to a value of type "
                                << getValue().getType();
  return success();
}

LogicalResult LaunchFuncOp::verify() {
  if (getKernel().getNestedReferences().size() != 1)
    return emitOpError("kernel must be a nested symbol @module::@function, got ")
           << getKernel();
  return success();
}

LogicalResult
LaunchFuncOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  Operation *container =
      symbolTable.lookupNearestSymbolFrom(*this, getKernel().getRootReference());
  if (!container)
    return emitOpError("kernel module @")
           << getKernelModuleName() << " is not defined";
  // After serialization (gpu.binary) or SPIR-V conversion the signature is
  // no longer a gpu.func's: there is nothing left to check against.
  auto module = llvm::dyn_cast<gpu::GPUModuleOp>(container);
  if (!module)
    return llvm::isa<gpu::BinaryOp>(container)
               ? success()
               : emitOpError("@") << getKernelModuleName()
                                  << " is not a gpu.module or gpu.binary";
  bool lowered = !module.getOps<spirv::ModuleOp>().empty();
  auto func = symbolTable.lookupNearestSymbolFrom<gpu::GPUFuncOp>(*this, getKernel());
  if (!func)
    return lowered ? success()
                   : emitOpError("kernel ") << getKernel()
                                            << " is not a gpu.func of gpu.module @"
                                            << getKernelModuleName();
  if (!func.isKernel())
    return emitOpError("function ") << getKernel()
                                    << " is not a kernel (declare it "
                                       "`gpu.func ... kernel`)";
  FunctionType type = func.getFunctionType();
  if (type.getNumInputs() != getKernelOperands().size())
    return emitOpError("kernel ") << getKernel() << " takes "
                                  << type.getNumInputs() << " argument(s) but "
                                  << getKernelOperands().size()
                                  << " were given";
  for (auto [i, expected, given] :
       llvm::enumerate(type.getInputs(), getKernelOperands().getTypes()))
    if (expected != given)
      return emitOpError("argument ") << i << " has type " << given
                                      << " but kernel " << getKernel()
                                      << " expects " << expected;
  return success();
}

#define GET_OP_CLASSES
#include "imex/Dialect/GPUX/IR/GPUXOps.cpp.inc"
