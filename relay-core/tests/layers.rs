//! relay-core's modules import each other in one direction (dimensions and
//! dtypes, then types with their parser, then the solver with the relation interface,
//! then declarations, then programs), a circle being allowed inside one folder only.
//! Read from the sources: every `crate::name` a module's code (not its tests or comments)
//! mentions is an import of top-level module `name`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Modules re-exported at the crate's root from the folder of their layer.
const MOVED: [(&str, &str); 3] = [("relation", "solve"), ("print", "ty"), ("adt", "registry")];

/// The top-level modules each top-level module imports.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut tops = BTreeSet::new();
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        if name != "lib" {
            tops.insert(name);
        }
    }
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut files = vec![src.clone()];
    while let Some(path) = files.pop() {
        if path.is_dir() {
            for entry in std::fs::read_dir(&path).unwrap() {
                files.push(entry.unwrap().path());
            }
            continue;
        }
        let rel = path.strip_prefix(&src).unwrap();
        let top = rel.iter().next().unwrap().to_str().unwrap();
        let top = top.strip_suffix(".rs").unwrap_or(top).to_string();
        let is_test = rel.iter().any(|p| p == "tests" || p == "tests.rs");
        if top == "lib" || is_test || path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let code = text.split("#[cfg(test)]\nmod tests {").next().unwrap();
        let code: String = code
            .lines()
            .map(|l| l.split("//").next().unwrap())
            .collect::<Vec<_>>()
            .join("\n");
        for name in mentioned(&code) {
            let name = MOVED
                .iter()
                .find(|(m, _)| *m == name)
                .map_or(name.as_str(), |(_, to)| to)
                .to_string();
            if name != top && tops.contains(&name) {
                graph.entry(top.clone()).or_default().insert(name);
            }
        }
    }
    graph
}

/// The names after `crate::`, and the first name of each item of a `crate::{..}` group.
fn mentioned(code: &str) -> BTreeSet<String> {
    let ident = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut names = BTreeSet::new();
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut item = String::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        names.insert(ident(&item));
                        item.clear();
                        continue;
                    }
                    _ => {}
                }
                item.push(c);
            }
            names.insert(ident(&item));
        } else {
            names.insert(ident(rest));
        }
    }
    names
}

/// The strongly connected components of more than one module (Tarjan's algorithm).
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
    struct State<'g> {
        graph: &'g BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        found: Vec<BTreeSet<String>>,
    }
    fn visit<'g>(s: &mut State<'g>, v: &'g str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        for w in s.graph.get(v).into_iter().flatten() {
            if !s.index.contains_key(w.as_str()) {
                visit(s, w);
                let low = s.low[v].min(s.low[w.as_str()]);
                s.low.insert(v, low);
            } else if s.stack.contains(&w.as_str()) {
                let low = s.low[v].min(s.index[w.as_str()]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = BTreeSet::new();
            while let Some(w) = s.stack.pop() {
                component.insert(w.to_string());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                s.found.push(component);
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.found
}

#[test]
fn modules_import_each_other_in_one_direction() {
    let graph = imports();
    // The reader and the printer sit above the declarations; the lexer and the
    // diagnostics below the types.
    assert!(graph["text"].contains("lexer") && graph["text"].contains("registry"));
    assert!(!graph
        .get("lexer")
        .is_some_and(|i| i.contains("text") || i.contains("ty")));
    assert!(!graph.get("diag").is_some_and(|i| i.contains("expr")));
    assert!(!graph["ty"].contains("text") && !graph["ty"].contains("registry"));
    // The types name a relation only by a `RelationRef`, whose definition is the solver's.
    assert!(!graph["ty"].contains("solve") && !graph["ty"].contains("fold"));
    assert_eq!(
        circles(&graph),
        Vec::<BTreeSet<String>>::new(),
        "{graph:#?}"
    );
}
