fn main() -> std::process::ExitCode {
    relay_cli::main()
}
