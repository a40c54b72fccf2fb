//! Programs as TVM prints them: every graph binding carries its type in a comment
//! (`%0 = dyn.reshape(%x, %s, newshape=[]) /* ty=Tensor[(?, ?), float32] */;`), and the
//! checker must give each binding exactly that type.

use relay_core::expr::ExprKind;
use relay_ops::prelude::Prelude;

/// The `(name, type)` of every binding line `%name = ... /* ty=TYPE */` of `src`, in order.
pub fn printed_types(src: &str) -> Vec<(String, String)> {
    src.lines()
        .filter_map(|line| {
            let line = line.trim_start();
            let (name, rest) = line.strip_prefix('%')?.split_once(" = ")?;
            let ty = rest.rsplit_once("/* ty=")?.1.split_once(" */")?.0;
            Some((name.to_string(), ty.to_string()))
        })
        .collect()
}

/// Checks `src` (with the standard prelude) and compares the type of every binding of
/// `@main`'s body with the type TVM printed on it. Returns the bindings compared.
pub fn check_printed(src: &str) -> Result<usize, String> {
    let prelude = Prelude::standard().map_err(|e| format!("{e:?}"))?;
    let checked = prelude.check(src);
    if let Some(e) = checked.errors.first() {
        return Err(format!("does not check: {}", e.message));
    }
    let (m, typed) = checked.typed.as_ref().ok_or("not typed")?;
    let main = m.global("main").ok_or("no @main")?;
    let func = m.global_def(main).func.ok_or("@main has no body")?;
    let ExprKind::Func(f) = &m.expr(func).kind else {
        return Err("@main is not a function".into());
    };
    let mut found = Vec::new();
    let mut e = f.body;
    while let ExprKind::Let { var, body, .. } = m.expr(e).kind {
        found.push((m.var_name(var).to_string(), typed.show(typed.var_ty(var))));
        e = body;
    }
    let want = printed_types(src);
    if found != want {
        let lines: Vec<String> = found
            .iter()
            .zip(&want)
            .filter(|(f, w)| f != w)
            .map(|(f, w)| format!("%{}: inferred {}, printed {}", f.0, f.1, w.1))
            .collect();
        return Err(format!(
            "{} bindings inferred, {} printed; differing:\n{}",
            found.len(),
            want.len(),
            lines.join("\n")
        ));
    }
    Ok(found.len())
}
