/**
 * The catalog's worked examples in languages other than Python: for each
 * language, one step per operator it supports, written against one small
 * realistic file of that language (`tests/fixtures/catalog/<language>/`).
 * `graphplan catalog --language go` shows these instead of the Python
 * examples; a test applies every one of them to its file and checks the
 * result with the language's compiler where one is installed (node, rustc,
 * javac; Go and TypeScript are checked by their grammar).
 *
 * An operator is listed for a language only when it works there
 * (`languages` of its registry entry); an example here for an operator the
 * language does not list is a test failure, and so is a listed operator
 * without one (for the languages below).
 *
 * @module
 */

type Step = Record<string, unknown>;

const JS = "src/cart.js";

const js = (file: string) => {
  const fn = (name: string) => ({ file, kind: "function", name });
  const method = (name: string) => ({ file, kind: "method", name, parent: { kind: "class", name: "Cart" } });
  const cart = { file, kind: "class", name: "Cart" };
  return {
    insert_sibling: {
      template: "insert_sibling",
      params: { target: method("add"), code: "clear() {\n  this.items = [];\n}" },
    },
    replace_comment: {
      template: "replace_comment",
      params: {
        target: { file, kind: "comment", parent: cart },
        text: "// Add a line for item; a second add of the same item raises its quantity.",
      },
    },
    guard_clause: {
      template: "guard_clause",
      params: {
        target: fn("loadCart"),
        condition: "!file",
        guard_body: 'throw new Error("file is required");',
      },
    },
    add_import_and_use: {
      template: "add_import_and_use",
      params: {
        target: { file, kind: "call", name: "readFileSync", parent: fn("loadCart") },
        import: 'import { readCartFile } from "./files.js";',
        expression: "readCartFile(file)",
      },
    },
    add_method: {
      template: "add_method",
      params: { target: cart, code: "isEmpty() {\n  return this.items.length === 0;\n}" },
    },
    add_parameter: {
      template: "add_parameter",
      params: { target: fn("loadCart"), name: "encoding", default: '"utf8"' },
    },
    add_class_attribute: {
      template: "add_class_attribute",
      params: { target: cart, name: "currency", value: '"EUR"' },
    },
    add_conditional_branch: {
      template: "add_conditional_branch",
      params: { target: { file, kind: "if", parent: fn("loadCart") }, body: "console.debug(data.owner);" },
    },
    replace_expression: {
      template: "replace_expression",
      params: {
        target: { file, kind: "identifier", name: "TAX_RATE", parent: method("total") },
        expression: "rate",
      },
    },
    modify_condition: {
      template: "modify_condition",
      params: { target: { file, kind: "if", parent: fn("loadCart") }, condition: "!data.items?.length" },
    },
    change_return_value: {
      template: "change_return_value",
      params: {
        target: { file, kind: "return", parent: method("total") },
        value: "Math.round(sum * (1 + TAX_RATE))",
      },
    },
    replace_function_body: {
      template: "replace_function_body",
      params: {
        target: method("add"),
        body: "this.items.push({ item, quantity: quantity ?? 1 });\nreturn this.items.length;",
      },
    },
    wrap_try_except: {
      template: "wrap_try_except",
      params: {
        target: { file, kind: "for", parent: fn("loadCart") },
        exc_type: "TypeError",
        as_name: "error",
        handler: "throw new Error(`bad item in ${file}`, { cause: error });",
      },
    },
    extract_variable: {
      template: "extract_variable",
      params: { target: { file, kind: "call", name: "readFileSync", parent: fn("loadCart") }, name: "text" },
    },
    delete_node: { op: "delete_node", params: { target: fn("cartName") } },
    rename_identifier: {
      op: "rename_identifier",
      params: { target: { file, kind: "variable", name: "TAX_RATE" }, new_name: "VAT_RATE" },
    },
    copy_node: {
      op: "copy_node",
      params: {
        target: method("add"),
        destination: { file, kind: "class", name: "Cart" },
        position: "append_to_body",
      },
    },
    move_node: {
      op: "move_node",
      params: { target: method("total"), destination: method("constructor"), position: "after" },
    },
    swap_nodes: { op: "swap_nodes", params: { target: method("add"), other: method("total") } },
    reorder_children: {
      op: "reorder_children",
      params: { target: cart, order: ["constructor", "total", "add"] },
    },
    set_blank_lines: {
      op: "set_blank_lines",
      params: { target: { file, kind: "variable", name: "TAX_RATE" }, after: 2 },
    },
  } as Record<string, Step>;
};

/** Examples of the primitives, composed and legacy operators, shared by JS and TS (same lines). */
const jsOps = (file: string, typed: boolean): Record<string, Step> => ({
  replace_node: {
    op: "replace_node",
    params: {
      locator: { file, kind: "function", name: "cartName" },
      replacement: typed
        ? 'export const cartName = (file: string): string => path.basename(file, ".cart.json");'
        : 'export const cartName = (file) => path.basename(file, ".cart.json");',
    },
  },
  insert_before_node: {
    op: "insert_before_node",
    params: {
      locator: { file, kind: "function", name: "loadCart" },
      code: typed
        ? "export function emptyCart(owner: string): Cart {\n  return new Cart(owner);\n}"
        : "export function emptyCart(owner) {\n  return new Cart(owner);\n}",
      separator: "\n\n",
    },
  },
  insert_after_node: {
    op: "insert_after_node",
    params: { locator: { file, kind: "import", name: "node:path" }, code: 'import os from "node:os";' },
  },
  delete_node: { op: "delete_node", params: { target: { file, kind: "function", name: "cartName" } } },
  wrap_node: {
    op: "wrap_node",
    params: {
      locator: { file, kind: "for", parent: { kind: "function", name: "loadCart" } },
      before: "if (Array.isArray(data.items)) {",
      after: "}",
    },
  },
  replace_all_matching: {
    op: "replace_all_matching",
    params: { locator: { file, kind: "identifier", name: "TAX_RATE" }, replacement: "VAT_RATE" },
  },
  locate: { op: "locate", params: { locator: { file, kind: "class", name: "Cart" } } },
  locate_region: {
    op: "locate_region",
    params: { locator: { file, kind: "method", name: "total", parent: { kind: "class", name: "Cart" } } },
  },
  add_import: { op: "add_import", params: { file, import_statement: 'import os from "node:os";' } },
  add_class_attribute: {
    op: "add_class_attribute",
    params: {
      file,
      class_name: "Cart",
      attribute: typed ? 'currency: string = "EUR";' : 'currency = "EUR";',
    },
  },
  replace_code: {
    op: "replace_code",
    params: { file, pattern: "const TAX_RATE = 0.2;", replacement: "const TAX_RATE = 0.25;" },
  },
  insert_code: {
    op: "insert_code",
    params: { file, anchor_line: 2, position: "after", code: 'import os from "node:os";' },
  },
  delete_lines: { op: "delete_lines", params: { file, start_line: 2, end_line: 2 } },
  rename_symbol: { op: "rename_symbol", params: { file, old_name: "TAX_RATE", new_name: "VAT_RATE" } },
  replace_function_body: {
    op: "replace_function_body",
    params: {
      file,
      func_name: "Cart.total",
      new_body:
        "return this.items.reduce((sum, line) => sum + line.item.price * line.quantity, 0) * (1 + TAX_RATE);",
    },
  },
});

const JS_EXAMPLES: Step[] = [
  ...Object.values(js(JS)),
  ...Object.values({
    ...jsOps(JS, false),
    add_method: {
      op: "add_method",
      params: {
        file: JS,
        class_name: "Cart",
        method_code: "isEmpty() {\n  return this.items.length === 0;\n}",
      },
    },
    modify_function_signature: {
      op: "modify_function_signature",
      params: {
        file: JS,
        func_name: "loadCart",
        old_signature: "loadCart(file)",
        new_signature: 'loadCart(file, encoding = "utf8")',
      },
    },
    wrap_block: {
      op: "wrap_block",
      params: {
        file: JS,
        start_line: 32,
        end_line: 32,
        before_code: "try {",
        after_code: "} catch (error) {\n  throw new Error(`cannot read ${file}`, { cause: error });\n}",
      },
    },
  }),
];

const TS = "src/cart.ts";

const TS_EXAMPLES: Step[] = [
  ...Object.values({
    ...js(TS),
    reorder_children: {
      op: "reorder_children",
      params: {
        target: { file: TS, kind: "class", name: "Cart" },
        order: ["items", "constructor", "total", "add"],
      },
    },
    add_parameter: {
      template: "add_parameter",
      params: {
        target: { file: TS, kind: "function", name: "loadCart" },
        name: "encoding",
        annotation: "BufferEncoding",
        default: '"utf8"',
      },
    },
    add_class_attribute: {
      template: "add_class_attribute",
      params: {
        target: { file: TS, kind: "class", name: "Cart" },
        name: "currency",
        value: '"EUR"',
        annotation: "string",
      },
    },
  }),
  ...Object.values({
    ...jsOps(TS, true),
    add_method: {
      op: "add_method",
      params: {
        file: TS,
        class_name: "Cart",
        method_code: "isEmpty(): boolean {\n  return this.items.length === 0;\n}",
      },
    },
    modify_function_signature: {
      op: "modify_function_signature",
      params: {
        file: TS,
        func_name: "loadCart",
        old_signature: "loadCart(file: string)",
        new_signature: 'loadCart(file: string, encoding: BufferEncoding = "utf8")',
      },
    },
    wrap_block: {
      op: "wrap_block",
      params: {
        file: TS,
        start_line: 36,
        end_line: 36,
        before_code: "try {",
        after_code: "} catch (error) {\n  throw new Error(`cannot read ${file}`, { cause: error });\n}",
      },
    },
  }),
];

const GO = "inventory/inventory.go";
const goFn = (name: string) => ({ file: GO, kind: "function", name });
const goAdd = { file: GO, kind: "method", name: "Add" };

const GO_EXAMPLES: Step[] = Object.values({
  insert_sibling: {
    template: "insert_sibling",
    params: {
      target: goFn("New"),
      code: "// Len is the number of items.\nfunc (inv *Inventory) Len() int {\n\treturn len(inv.items)\n}",
    },
  },
  replace_comment: {
    template: "replace_comment",
    params: {
      target: { file: GO, kind: "comment", index: 4 },
      text: "// New returns an empty inventory, ready for Add.",
    },
  },
  guard_clause: {
    template: "guard_clause",
    params: { target: goAdd, condition: 'name == ""', guard_body: 'return errors.New("empty name")' },
  },
  add_parameter: {
    template: "add_parameter",
    params: { target: goFn("Describe"), name: "width", annotation: "int" },
  },
  replace_expression: {
    template: "replace_expression",
    params: {
      target: { file: GO, kind: "call", name: "strings.TrimSpace", parent: goFn("Describe") },
      expression: "strings.ToUpper(strings.TrimSpace(item.Name))",
    },
  },
  modify_condition: {
    template: "modify_condition",
    params: { target: { file: GO, kind: "if", parent: goAdd }, condition: "count <= 0" },
  },
  change_return_value: {
    template: "change_return_value",
    params: {
      target: { file: GO, kind: "return", parent: goFn("Describe") },
      value: 'fmt.Sprintf("%s (%d)", label, item.Count)',
    },
  },
  replace_function_body: {
    template: "replace_function_body",
    params: { target: goFn("New"), body: "return &Inventory{items: make(map[string]Item)}" },
  },
  change_signature: {
    template: "change_signature",
    params: { target: goFn("Describe"), parameters: "item Item, prefix string" },
  },
  delete_node: { op: "delete_node", params: { target: goAdd } },
  rename_identifier: {
    op: "rename_identifier",
    params: {
      target: { file: GO, kind: "parameter", name: "item", parent: goFn("Describe") },
      new_name: "entry",
    },
  },
  copy_node: {
    op: "copy_node",
    params: {
      target: { file: GO, kind: "field", name: "Count", parent: { kind: "struct", name: "Item" } },
      destination: { file: GO, kind: "struct", name: "Inventory" },
      position: "append_to_body",
    },
  },
  move_node: {
    op: "move_node",
    params: { target: goFn("Describe"), destination: goFn("New"), position: "before" },
  },
  swap_nodes: {
    op: "swap_nodes",
    params: {
      target: { file: GO, kind: "struct", name: "Item" },
      other: { file: GO, kind: "struct", name: "Inventory" },
    },
  },
  reorder_children: { op: "reorder_children", params: { target: goAdd, order: [0, 1, 3, 2, 4, 5] } },
  set_blank_lines: { op: "set_blank_lines", params: { target: goFn("New"), before: 2 } },
  replace_node: {
    op: "replace_node",
    params: {
      locator: goFn("New"),
      replacement: "func New() *Inventory {\n\treturn &Inventory{items: make(map[string]Item, 16)}\n}",
    },
  },
  insert_before_node: {
    op: "insert_before_node",
    params: {
      locator: goFn("Describe"),
      code:
        "// Count returns how many of name are in stock.\nfunc (inv *Inventory) Count(name string) int {\n\treturn inv.items[name].Count\n}",
      separator: "\n\n",
    },
  },
  insert_after_node: {
    op: "insert_after_node",
    params: {
      locator: { file: GO, kind: "statement", index: 0, parent: goFn("Describe") },
      code: 'label = strings.ReplaceAll(label, "\\n", " ")',
    },
  },
  wrap_node: {
    op: "wrap_node",
    params: {
      locator: { file: GO, kind: "statement", parent: goAdd, index: 3 },
      before: 'if item.Name == "" {',
      after: "}",
    },
  },
  replace_all_matching: {
    op: "replace_all_matching",
    params: {
      locator: { file: GO, kind: "identifier", name: "ErrNegative" },
      replacement: "ErrNegativeCount",
    },
  },
  locate: { op: "locate", params: { locator: { file: GO, kind: "struct", name: "Inventory" } } },
  locate_region: { op: "locate_region", params: { locator: goAdd } },
  add_import: { op: "add_import", params: { file: GO, import_statement: 'import _ "embed"' } },
  replace_code: {
    op: "replace_code",
    params: {
      file: GO,
      pattern: 'return fmt.Sprintf("%s x%d", label, item.Count)',
      replacement: 'return fmt.Sprintf("%s × %d", label, item.Count)',
    },
  },
  insert_code: {
    op: "insert_code",
    params: { file: GO, anchor_line: 43, position: "after", code: "\tlabel = strings.ToLower(label)" },
  },
  delete_lines: { op: "delete_lines", params: { file: GO, start_line: 10, end_line: 10 } },
  modify_function_signature: {
    op: "modify_function_signature",
    params: {
      file: GO,
      func_name: "Describe",
      old_signature: "Describe(item Item)",
      new_signature: "Describe(item Item, _ int)",
    },
  },
  rename_symbol: {
    op: "rename_symbol",
    params: { file: GO, old_name: "ErrNegative", new_name: "ErrNegativeCount" },
  },
  replace_function_body_legacy: {
    op: "replace_function_body",
    params: { file: GO, func_name: "New", new_body: "return &Inventory{items: make(map[string]Item)}" },
  },
  wrap_block: {
    op: "wrap_block",
    params: { file: GO, start_line: 36, end_line: 36, before_code: "if count > 0 {", after_code: "}" },
  },
});

const RS = "src/inventory.rs";
const rsFn = (name: string) => ({ file: RS, kind: "function", name });
const rsMethod = (name: string) => ({
  file: RS,
  kind: "method",
  name,
  parent: { kind: "impl", name: "Inventory" },
});

const RUST_EXAMPLES: Step[] = Object.values({
  insert_sibling: {
    template: "insert_sibling",
    params: { target: rsMethod("new"), code: "pub fn len(&self) -> usize {\n    self.items.len()\n}" },
  },
  replace_comment: {
    template: "replace_comment",
    params: {
      target: { file: RS, kind: "comment", parent: { kind: "impl", name: "Inventory" }, index: 0 },
      text: "/// An empty inventory, ready for `add`.",
    },
  },
  guard_clause: {
    template: "guard_clause",
    params: { target: rsMethod("add"), condition: "name.is_empty()", guard_body: "return 0;" },
  },
  add_method: {
    template: "add_method",
    params: {
      target: { file: RS, kind: "impl", name: "Inventory", index: 0 },
      code:
        "/// Whether nothing is in stock.\npub fn is_empty(&self) -> bool {\n    self.items.is_empty()\n}",
    },
  },
  add_parameter: {
    template: "add_parameter",
    params: { target: rsFn("describe"), name: "width", annotation: "usize" },
  },
  replace_expression: {
    template: "replace_expression",
    params: {
      target: { file: RS, kind: "call", name: "unwrap_or", parent: rsMethod("count") },
      expression: "self.items.get(name).map_or(0, |item| item.count)",
    },
  },
  modify_condition: {
    template: "modify_condition",
    params: {
      target: { file: RS, kind: "if", parent: rsMethod("add") },
      condition: "count == 0 || name.is_empty()",
    },
  },
  change_return_value: {
    template: "change_return_value",
    params: {
      target: { file: RS, kind: "return", parent: rsFn("describe") },
      value: 'format!("{} ({})", label, item.count)',
    },
  },
  replace_function_body: {
    template: "replace_function_body",
    params: { target: rsMethod("new"), body: "Inventory::default()" },
  },
  change_signature: {
    template: "change_signature",
    params: { target: rsFn("describe"), parameters: "item: &Item, _prefix: &str" },
  },
  delete_node: { op: "delete_node", params: { target: { file: RS, kind: "impl", name: "Display" } } },
  rename_identifier: {
    op: "rename_identifier",
    params: {
      target: { file: RS, kind: "variable", name: "label", parent: rsFn("describe") },
      new_name: "text",
    },
  },
  copy_node: {
    op: "copy_node",
    params: {
      target: { file: RS, kind: "field", name: "items", parent: { kind: "struct", name: "Inventory" } },
      destination: { file: RS, kind: "struct", name: "Item" },
      position: "append_to_body",
    },
  },
  move_node: {
    op: "move_node",
    params: {
      target: { file: RS, kind: "struct", name: "Item" },
      destination: rsFn("describe"),
      position: "after",
    },
  },
  swap_nodes: {
    op: "swap_nodes",
    params: {
      target: { file: RS, kind: "struct", name: "Item" },
      other: { file: RS, kind: "struct", name: "Inventory" },
    },
  },
  reorder_children: {
    op: "reorder_children",
    params: { target: { file: RS, kind: "impl", name: "Inventory" }, order: ["count", "new", "add"] },
  },
  set_blank_lines: { op: "set_blank_lines", params: { target: rsFn("describe"), before: 2 } },
  replace_node: {
    op: "replace_node",
    params: {
      locator: rsFn("describe"),
      replacement: "pub fn describe(item: &Item) -> String {\n    item.to_string()\n}",
    },
  },
  insert_before_node: {
    op: "insert_before_node",
    params: {
      locator: rsFn("describe"),
      code:
        "/// The total count of an inventory.\npub fn total(inventory: &Inventory) -> u32 {\n    inventory.items.values().map(|item| item.count).sum()\n}",
      separator: "\n\n",
    },
  },
  insert_after_node: {
    op: "insert_after_node",
    params: { locator: { file: RS, kind: "import", index: -1 }, code: "use std::collections::BTreeMap;" },
  },
  wrap_node: {
    op: "wrap_node",
    params: {
      locator: { file: RS, kind: "statement", index: 1, parent: rsMethod("add") },
      before: "{",
      after: "}",
    },
  },
  replace_all_matching: {
    op: "replace_all_matching",
    params: { locator: { file: RS, kind: "identifier", name: "label" }, replacement: "title" },
  },
  locate: { op: "locate", params: { locator: { file: RS, kind: "struct", name: "Inventory" } } },
  locate_region: { op: "locate_region", params: { locator: rsMethod("count") } },
  add_import: { op: "add_import", params: { file: RS, import_statement: "use std::collections::BTreeMap;" } },
  replace_code: {
    op: "replace_code",
    params: {
      file: RS,
      pattern: "let label = item.name.trim();",
      replacement: "let label = item.name.trim_end();",
    },
  },
  insert_code: {
    op: "insert_code",
    params: { file: RS, anchor_line: 2, position: "after", code: "use std::collections::BTreeMap;" },
  },
  delete_lines: { op: "delete_lines", params: { file: RS, start_line: 4, end_line: 4 } },
  modify_function_signature: {
    op: "modify_function_signature",
    params: {
      file: RS,
      func_name: "describe",
      old_signature: "describe(item: &Item)",
      new_signature: "describe(item: &Item, _width: usize)",
    },
  },
  rename_symbol: { op: "rename_symbol", params: { file: RS, old_name: "label", new_name: "title" } },
  replace_function_body_legacy: {
    op: "replace_function_body",
    params: { file: RS, func_name: "describe", new_body: "item.to_string()" },
  },
  wrap_block: {
    op: "wrap_block",
    params: { file: RS, start_line: 29, end_line: 30, before_code: "if !name.is_empty() {", after_code: "}" },
  },
});

const JAVA = "src/shop/Inventory.java";
const javaMethod = (name: string) => ({
  file: JAVA,
  kind: "method",
  name,
  parent: { kind: "class", name: "Inventory" },
});

const JAVA_EXAMPLES: Step[] = (Object.values({
  insert_sibling: {
    template: "insert_sibling",
    params: {
      target: javaMethod("count"),
      position: "before",
      code: "/** How many names are in stock. */\npublic int size() {\n    return items.size();\n}",
    },
  },
  replace_comment: {
    template: "replace_comment",
    params: {
      target: { file: JAVA, kind: "comment", parent: { kind: "class", name: "Inventory" }, index: 0 },
      text: "/** Store count more of name, up to the limit. */",
    },
  },
  guard_clause: {
    template: "guard_clause",
    params: { target: javaMethod("describe"), condition: "name == null", guard_body: 'return "?";' },
  },
  add_method: {
    template: "add_method",
    params: {
      target: { file: JAVA, kind: "class", name: "Inventory" },
      code: "/** Whether nothing is in stock. */\npublic boolean isEmpty() {\n    return items.isEmpty();\n}",
    },
  },
  add_parameter: {
    template: "add_parameter",
    params: { target: javaMethod("describe"), name: "width", annotation: "int" },
  },
  replace_expression: {
    template: "replace_expression",
    params: {
      target: { file: JAVA, kind: "call", name: "Math.min", parent: javaMethod("add") },
      expression: "Math.min(Math.max(total, 0), LIMIT)",
    },
  },
  modify_condition: {
    template: "modify_condition",
    params: {
      target: { file: JAVA, kind: "if", parent: javaMethod("add") },
      condition: "count < 0 || name == null",
    },
  },
  change_return_value: {
    template: "change_return_value",
    params: {
      target: { file: JAVA, kind: "return", parent: javaMethod("describe") },
      value: 'label + " (" + count + ")"',
    },
  },
  replace_function_body: {
    template: "replace_function_body",
    params: {
      target: javaMethod("count"),
      body: "return items.getOrDefault(Objects.requireNonNull(name), 0);",
    },
  },
  change_signature: {
    template: "change_signature",
    params: { target: javaMethod("describe"), parameters: "final String name, final int count" },
  },
  wrap_try_except: {
    template: "wrap_try_except",
    params: {
      target: { file: JAVA, kind: "call", name: "items.put", parent: javaMethod("add") },
      exc_type: "UnsupportedOperationException",
      as_name: "e",
      handler: 'throw new IllegalStateException("inventory is read-only", e);',
    },
  },
  delete_node: { op: "delete_node", params: { target: javaMethod("count") } },
  rename_identifier: {
    op: "rename_identifier",
    params: { target: { file: JAVA, kind: "variable", name: "total" }, new_name: "sum" },
  },
  copy_node: {
    op: "copy_node",
    params: {
      target: { file: JAVA, kind: "expression_statement", parent: javaMethod("count"), index: 0 },
      destination: javaMethod("describe"),
      position: "prepend_to_body",
    },
  },
  move_node: {
    op: "move_node",
    params: { target: javaMethod("describe"), destination: javaMethod("add"), position: "before" },
  },
  swap_nodes: { op: "swap_nodes", params: { target: javaMethod("add"), other: javaMethod("count") } },
  reorder_children: {
    op: "reorder_children",
    params: {
      target: { file: JAVA, kind: "class", name: "Inventory" },
      order: [1, 0, "describe", "count", "add"],
    },
  },
  set_blank_lines: { op: "set_blank_lines", params: { target: javaMethod("count"), before: 2 } },
  replace_node: {
    op: "replace_node",
    params: {
      locator: javaMethod("describe"),
      replacement:
        'public static String describe(String name, int count) {\n    return name.strip() + " x" + count;\n}',
    },
  },
  insert_before_node: {
    op: "insert_before_node",
    params: {
      locator: javaMethod("describe"),
      code: "/** How many distinct items are in stock. */\npublic int size() {\n    return items.size();\n}",
      separator: "\n\n",
    },
  },
  insert_after_node: {
    op: "insert_after_node",
    params: {
      locator: { file: JAVA, kind: "import", name: "java.util.Map" },
      code: "import java.util.TreeMap;",
    },
  },
  wrap_node: {
    op: "wrap_node",
    params: {
      locator: { file: JAVA, kind: "expression_statement", parent: javaMethod("add") },
      before: "if (total > 0) {",
      after: "}",
    },
  },
  replace_all_matching: {
    op: "replace_all_matching",
    params: { locator: { file: JAVA, kind: "identifier", name: "LIMIT" }, replacement: "MAX_COUNT" },
  },
  locate: { op: "locate", params: { locator: { file: JAVA, kind: "class", name: "Inventory" } } },
  locate_region: { op: "locate_region", params: { locator: javaMethod("count") } },
}) as Step[]).concat(Object.values({
  add_method: {
    op: "add_method",
    params: {
      file: JAVA,
      class_name: "Inventory",
      method_code:
        "/** Whether nothing is in stock. */\npublic boolean isEmpty() {\n    return items.isEmpty();\n}",
    },
  },
  add_import: { op: "add_import", params: { file: JAVA, import_statement: "import java.util.TreeMap;" } },
  add_class_attribute: {
    op: "add_class_attribute",
    params: { file: JAVA, class_name: "Inventory", attribute: 'private static final String UNIT = "pcs";' },
  },
  replace_code: {
    op: "replace_code",
    params: {
      file: JAVA,
      pattern: "private static final int LIMIT = 1000;",
      replacement: "private static final int LIMIT = 5000;",
    },
  },
  insert_code: {
    op: "insert_code",
    params: { file: JAVA, anchor_line: 5, position: "after", code: "import java.util.TreeMap;" },
  },
  delete_lines: { op: "delete_lines", params: { file: JAVA, start_line: 7, end_line: 7 } },
  modify_function_signature: {
    op: "modify_function_signature",
    params: {
      file: JAVA,
      func_name: "describe",
      old_signature: "describe(String name, int count)",
      new_signature: "describe(final String name, final int count)",
    },
  },
  rename_symbol: { op: "rename_symbol", params: { file: JAVA, old_name: "LIMIT", new_name: "MAX_COUNT" } },
  replace_function_body: {
    op: "replace_function_body",
    params: {
      file: JAVA,
      func_name: "count",
      new_body: "return items.getOrDefault(Objects.requireNonNull(name), 0);",
    },
  },
  wrap_block: {
    op: "wrap_block",
    params: { file: JAVA, start_line: 19, end_line: 19, before_code: "if (total > 0) {", after_code: "}" },
  },
}));

/**
 * The whole-file steps in a language: a new source file of it, the removal of a
 * file the example repository holds besides the fixture (`FILE_OP_SCRATCH`),
 * the fixture moved, and a script made executable.
 */
function fileExamples(fixture: string, created: string, content: string, moved: string): Step[] {
  return [
    { op: "create_file", params: { file: created, content } },
    { op: "delete_file", params: { file: FILE_OP_SCRATCH } },
    { op: "rename_file", params: { from: fixture, to: moved } },
    { op: "set_mode", params: { file: FILE_OP_SCRIPT, mode: "100755" } },
  ];
}

/** The stray file the `delete_file` examples remove. */
export const FILE_OP_SCRATCH = "notes/scratch.txt";

/** The script the `set_mode` examples make executable. */
export const FILE_OP_SCRIPT = "scripts/release.sh";

/** The examples by language (Python's are the registry entries' own). */
export const CATALOG_EXAMPLES: Readonly<Record<string, readonly Step[]>> = {
  javascript: [
    ...JS_EXAMPLES,
    ...fileExamples(JS, "src/defaults.js", "export const DEFAULT_TIMEOUT = 30;\n", "src/basket.js"),
  ],
  typescript: [
    ...TS_EXAMPLES,
    ...fileExamples(TS, "src/defaults.ts", "export const DEFAULT_TIMEOUT: number = 30;\n", "src/basket.ts"),
  ],
  go: [
    ...GO_EXAMPLES,
    ...fileExamples(
      GO,
      "inventory/defaults.go",
      "package inventory\n\nconst DefaultTimeout = 30\n",
      "inventory/stock.go",
    ),
  ],
  rust: [
    ...RUST_EXAMPLES,
    ...fileExamples(RS, "src/defaults.rs", "pub const DEFAULT_TIMEOUT: u32 = 30;\n", "src/stock.rs"),
  ],
  java: [
    ...JAVA_EXAMPLES,
    ...fileExamples(
      JAVA,
      "src/shop/Defaults.java",
      "package shop;\n\npublic final class Defaults {\n  public static final int TIMEOUT = 30;\n}\n",
      "src/shop/legacy/Inventory.java",
    ),
  ],
};

/** The file each language's examples edit (under `tests/fixtures/catalog/<language>/`). */
export const CATALOG_EXAMPLE_FILES: Readonly<Record<string, string>> = {
  javascript: JS,
  typescript: TS,
  go: GO,
  rust: RS,
  java: JAVA,
};

/** The example of operator or template `name` (`form`: how a step calls it) in `language`, if there is one. */
export function catalogExample(
  language: string,
  form: "op" | "template" | "fragment",
  name: string,
): Step | undefined {
  return CATALOG_EXAMPLES[language]?.find((step) =>
    form === "template" ? step.template === name : step.op === name
  );
}
