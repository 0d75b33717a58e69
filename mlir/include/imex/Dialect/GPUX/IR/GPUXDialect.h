// The GPUX dialect (GPUXOps.td): its type and ops.
#ifndef IMEX_DIALECT_GPUX_IR_GPUXDIALECT_H
#define IMEX_DIALECT_GPUX_IR_GPUXDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "imex/Dialect/GPUX/IR/GPUXOpsDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "imex/Dialect/GPUX/IR/GPUXOpsTypes.h.inc"

#define GET_OP_CLASSES
#include "imex/Dialect/GPUX/IR/GPUXOps.h.inc"

#endif // IMEX_DIALECT_GPUX_IR_GPUXDIALECT_H
