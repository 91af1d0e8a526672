/**
 * The names JavaScript and TypeScript code may use without defining them:
 * the ECMAScript globals and TypeScript's global types (every top-level
 * `interface`, `type`, `declare var`, `declare function` and `declare
 * namespace` of TypeScript 5.6's `lib.es5.d.ts` up to `lib.esnext.*.d.ts`
 * and `lib.decorators*.d.ts`), and the functions Node and browsers both
 * offer (`console`, timers, `URL`, ...) with Node's own globals (`process`,
 * `Buffer`, `require`, ...). A file that defines one of them shadows or
 * augments the global (`interface ReadonlyArray<T> extends
 * RelativeIndexable<T> {}` in `@types/node`'s `globals.d.ts`): when the
 * definition goes, its uses reach the global, so they do not dangle.
 * Browser-only names (`window`, `Range`, `Node`) and the web classes
 * libraries define for themselves (`Response`, `Headers`, `crypto`, whose
 * global differs from `require("crypto")`) are not here.
 *
 * @module
 */

const ECMASCRIPT =
  "AggregateError AggregateErrorConstructor Array ArrayBuffer ArrayBufferConstructor ArrayBufferLike " +
  "ArrayBufferTypes ArrayBufferView ArrayConstructor ArrayIterator ArrayLike AsyncDisposable " +
  "AsyncDisposableStack AsyncDisposableStackConstructor AsyncGenerator AsyncGeneratorFunction " +
  "AsyncGeneratorFunctionConstructor AsyncIterable AsyncIterableIterator AsyncIterator AsyncIteratorObject " +
  "Atomics Awaited BigInt BigInt64Array BigInt64ArrayConstructor BigIntConstructor BigIntToLocaleStringOptions " +
  "BigUint64Array BigUint64ArrayConstructor Boolean BooleanConstructor BuiltinIteratorReturn CallableFunction " +
  "Capitalize ClassAccessorDecoratorContext ClassAccessorDecoratorResult ClassAccessorDecoratorTarget " +
  "ClassDecorator ClassDecoratorContext ClassFieldDecoratorContext ClassGetterDecoratorContext " +
  "ClassMemberDecoratorContext ClassMethodDecoratorContext ClassSetterDecoratorContext ConcatArray " +
  "ConstructorParameters DataView DataViewConstructor Date DateConstructor DecoratorContext DecoratorMetadata " +
  "DecoratorMetadataObject Disposable DisposableStack DisposableStackConstructor Error ErrorConstructor " +
  "ErrorOptions EvalError EvalErrorConstructor Exclude Extract FinalizationRegistry " +
  "FinalizationRegistryConstructor FlatArray Float32Array Float32ArrayConstructor Float64Array " +
  "Float64ArrayConstructor Function FunctionConstructor Generator GeneratorFunction " +
  "GeneratorFunctionConstructor IArguments ImportAssertions ImportAttributes ImportCallOptions ImportMeta " +
  "Infinity InstanceType Int16Array Int16ArrayConstructor Int32Array Int32ArrayConstructor Int8Array " +
  "Int8ArrayConstructor Intl Iterable IterableIterator Iterator IteratorObject IteratorObjectConstructor " +
  "IteratorResult IteratorReturnResult IteratorYieldResult JSON Lowercase Map MapConstructor MapIterator Math " +
  "MethodDecorator NaN NewableFunction NoInfer NonNullable Number NumberConstructor Object ObjectConstructor " +
  "Omit OmitThisParameter ParameterDecorator Parameters Partial Pick Promise PromiseConstructor " +
  "PromiseConstructorLike PromiseFulfilledResult PromiseLike PromiseRejectedResult PromiseSettledResult " +
  "PromiseWithResolvers PropertyDecorator PropertyDescriptor PropertyDescriptorMap PropertyKey Proxy " +
  "ProxyConstructor ProxyHandler RangeError RangeErrorConstructor Readonly ReadonlyArray ReadonlyMap " +
  "ReadonlySet ReadonlySetLike Record ReferenceError ReferenceErrorConstructor Reflect RegExp RegExpConstructor " +
  "RegExpExecArray RegExpIndicesArray RegExpMatchArray RegExpStringIterator Required ReturnType Set " +
  "SetConstructor SetIterator SharedArrayBuffer SharedArrayBufferConstructor String StringConstructor " +
  "StringIterator SuppressedError SuppressedErrorConstructor Symbol SymbolConstructor SyntaxError " +
  "SyntaxErrorConstructor TemplateStringsArray ThisParameterType ThisType TypeError TypeErrorConstructor " +
  "TypedPropertyDescriptor URIError URIErrorConstructor Uint16Array Uint16ArrayConstructor Uint32Array " +
  "Uint32ArrayConstructor Uint8Array Uint8ArrayConstructor Uint8ClampedArray Uint8ClampedArrayConstructor " +
  "Uncapitalize Uppercase WeakKey WeakKeyTypes WeakMap WeakMapConstructor WeakRef WeakRefConstructor WeakSet " +
  "WeakSetConstructor decodeURI decodeURIComponent encodeURI encodeURIComponent escape eval isFinite isNaN " +
  "parseFloat parseInt unescape";

const HOSTS =
  "undefined globalThis console setTimeout clearTimeout setInterval clearInterval queueMicrotask " +
  "structuredClone URL URLSearchParams TextEncoder TextDecoder atob btoa " +
  "process Buffer require module exports __dirname __filename global setImmediate clearImmediate NodeJS";

/** Global names of JavaScript and TypeScript (see the module notes). */
export const JS_GLOBALS: ReadonlySet<string> = new Set(`${ECMASCRIPT} ${HOSTS}`.split(/\s+/));
