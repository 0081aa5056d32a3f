//! A throwaway PostgreSQL server for tests and benchmarks (issue 17): `initdb` into a temporary
//! folder, `pg_ctl start` on a free loopback port, stopped and deleted when dropped. No mock:
//! the team store is tested against the real server Debian's `postgresql` package installs.
//!
//! - The programs are found on `PATH`, else under `/usr/lib/postgresql/<version>/bin` (where
//!   Debian puts them).
//! - PostgreSQL refuses to run as root: as root the server runs as the `postgres` user (made by
//!   the package), through `runuser`, and the folder is given to it.
//! - The server trusts local logins (user `prospect`, no password), listens on 127.0.0.1 only,
//!   and runs with `fsync=off` (a test server: speed over durability).

use std::path::{Path, PathBuf};
use std::process::Command;

/// A running throwaway server; stopped (`pg_ctl stop -m immediate`) and its folder removed on
/// drop.
#[derive(Debug)]
pub struct TempServer {
    dir: tempfile::TempDir,
    bin: PathBuf,
    port: u16,
    as_user: Option<String>,
}

/// The folder holding `initdb` and `pg_ctl`, `None` when PostgreSQL is not installed.
pub fn bin_dir() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("PATH") {
        for d in std::env::split_paths(&path) {
            if d.join("initdb").is_file() && d.join("pg_ctl").is_file() {
                return Some(d);
            }
        }
    }
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
        .filter(|b| b.join("initdb").is_file())
        .collect();
    versions.sort();
    versions.pop()
}

impl TempServer {
    /// Makes and starts a server; takes about a second.
    ///
    /// # Errors
    /// PostgreSQL not installed, no `postgres` user to run it as root, or `initdb` / `pg_ctl`
    /// failed (their output is in the message).
    pub fn start() -> Result<TempServer, String> {
        TempServer::start_with(false)
    }

    /// As [`TempServer::start`], with TLS on (`ssl = on`): its certificate, for `localhost` and
    /// 127.0.0.1, is signed by a throwaway authority whose certificate is
    /// [`TempServer::root_cert`]. Made with the `openssl` program.
    ///
    /// # Errors
    /// As [`TempServer::start`], or `openssl` missing or failing.
    pub fn start_tls() -> Result<TempServer, String> {
        TempServer::start_with(true)
    }

    /// The PEM certificate of the authority that signed the server's (a TLS server only): what
    /// a client's `sslrootcert` names.
    pub fn root_cert(&self) -> PathBuf {
        self.dir.path().join("ca.crt")
    }

    fn start_with(tls: bool) -> Result<TempServer, String> {
        let bin = bin_dir().ok_or(
            "PostgreSQL is not installed (no initdb on PATH or under /usr/lib/postgresql)",
        )?;
        let dir = tempfile::Builder::new()
            .prefix("prospect-pg-")
            .tempdir()
            .map_err(|e| format!("temporary folder: {e}"))?;
        let uid = if is_root() {
            let uid = user_id("postgres")
                .ok_or("running as root, and there is no postgres user to run the server as")?;
            chown_tree(dir.path(), uid)?;
            Some(uid)
        } else {
            None
        };
        let as_user = uid.map(|_| "postgres".to_string());
        if tls {
            make_certificates(dir.path(), uid)?;
        }
        let port = free_port()?;
        let server = TempServer {
            dir,
            bin,
            port,
            as_user,
        };
        let data = server.data_dir();
        server.run(
            "initdb",
            &[
                "-D",
                &data.to_string_lossy(),
                "-U",
                "prospect",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
                "--locale=C",
            ],
        )?;
        let mut opts = format!(
            "-p {port} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200",
            server.dir.path().display()
        );
        if tls {
            let d = server.dir.path().display();
            opts += &format!(
                " -c ssl=on -c ssl_cert_file={d}/server.crt -c ssl_key_file={d}/server.key"
            );
        }
        let log = server.dir.path().join("server.log");
        server.run(
            "pg_ctl",
            &[
                "-D",
                &data.to_string_lossy(),
                "-o",
                &opts,
                "-l",
                &log.to_string_lossy(),
                "-w",
                "-t",
                "60",
                "start",
            ],
        )?;
        Ok(server)
    }

    /// The URL of database `db` on this server (`postgres://prospect@127.0.0.1:PORT/db`).
    pub fn url(&self, db: &str) -> String {
        format!(
            "postgres://prospect@127.0.0.1:{}/{db}?sslmode=disable",
            self.port
        )
    }

    /// Makes a new empty database `db` and returns its URL.
    ///
    /// # Errors
    /// The server refused (a name in use).
    pub fn create_db(&self, db: &str) -> Result<String, String> {
        create_database(&self.url("postgres"), db)
    }

    /// The port it listens on (127.0.0.1).
    pub fn port(&self) -> u16 {
        self.port
    }

    fn data_dir(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    fn run(&self, program: &str, args: &[&str]) -> Result<(), String> {
        let exe = self.bin.join(program);
        let mut cmd = match &self.as_user {
            Some(user) => {
                let mut c = Command::new("runuser");
                c.args(["-u", user, "--"]).arg(&exe);
                c
            }
            None => Command::new(&exe),
        };
        let out = cmd
            .args(args)
            .current_dir(self.dir.path())
            .output()
            .map_err(|e| format!("{program}: {e}"))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(format!(
                "{program} failed ({}): {}{}",
                out.status,
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ))
        }
    }
}

impl Drop for TempServer {
    fn drop(&mut self) {
        let data = self.data_dir();
        let _ = self.run(
            "pg_ctl",
            &[
                "-D",
                &data.to_string_lossy(),
                "-m",
                "immediate",
                "-w",
                "stop",
            ],
        );
    }
}

/// Makes, in `dir`, a throwaway authority (`ca.crt`) and the server's key and certificate
/// signed by it (`server.key`, `server.crt`, for `localhost` and 127.0.0.1), the key readable by
/// the server's user only (`uid` when it runs as another user).
fn make_certificates(dir: &Path, uid: Option<u32>) -> Result<(), String> {
    let openssl = |args: &[&str]| -> Result<(), String> {
        let out = Command::new("openssl")
            .args(args)
            .current_dir(dir)
            .output()
            .map_err(|e| format!("openssl: {e}"))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(format!(
                "openssl {} failed: {}",
                args.first().copied().unwrap_or_default(),
                String::from_utf8_lossy(&out.stderr)
            ))
        }
    };
    let ec = [
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
    ];
    openssl(
        &[
            &["req", "-x509"][..],
            &ec,
            &[
                "-keyout",
                "ca.key",
                "-out",
                "ca.crt",
                "-days",
                "2",
                "-subj",
                "/CN=prospect test authority",
            ],
        ]
        .concat(),
    )?;
    openssl(
        &[
            &["req"][..],
            &ec,
            &[
                "-keyout",
                "server.key",
                "-out",
                "server.csr",
                "-subj",
                "/CN=localhost",
            ],
        ]
        .concat(),
    )?;
    std::fs::write(
        dir.join("server.ext"),
        "subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n",
    )
    .map_err(|e| format!("server.ext: {e}"))?;
    openssl(&[
        "x509",
        "-req",
        "-in",
        "server.csr",
        "-CA",
        "ca.crt",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "server.crt",
        "-days",
        "2",
        "-extfile",
        "server.ext",
    ])?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let key = dir.join("server.key");
        std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o600))
            .map_err(|e| format!("server.key: {e}"))?;
        for f in ["server.key", "server.crt"] {
            std::os::unix::fs::chown(dir.join(f), uid, None).map_err(|e| format!("{f}: {e}"))?;
        }
    }
    Ok(())
}

/// `true` when this process runs as root (`/proc/self` belongs to the effective user).
fn is_root() -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
    }
    #[cfg(not(unix))]
    {
        false
    }
}

fn user_id(name: &str) -> Option<u32> {
    let passwd = std::fs::read_to_string("/etc/passwd").ok()?;
    passwd.lines().find_map(|l| {
        let mut f = l.split(':');
        (f.next()? == name).then(|| f.nth(1)?.parse().ok())?
    })
}

fn chown_tree(dir: &Path, uid: u32) -> Result<(), String> {
    #[cfg(unix)]
    {
        std::os::unix::fs::chown(dir, Some(uid), None)
            .map_err(|e| format!("chown {}: {e}", dir.display()))?;
    }
    Ok(())
}

fn free_port() -> Result<u16, String> {
    let l = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| format!("free port: {e}"))?;
    l.local_addr()
        .map(|a| a.port())
        .map_err(|e| format!("free port: {e}"))
}

/// Makes database `db` on the server of `server_url` (a URL of any database there, e.g.
/// `postgres://prospect@127.0.0.1:5432/postgres`) unless it exists, and returns the URL of
/// `db` (the same URL with its database replaced).
///
/// Callable from async code.
///
/// # Errors
/// The server cannot be reached or refuses.
pub fn create_database(server_url: &str, db: &str) -> Result<String, String> {
    // The `postgres` client runs a runtime of its own, which cannot start inside an async
    // caller's: it runs on a thread of its own.
    std::thread::scope(|s| {
        s.spawn(|| make_database(server_url, db))
            .join()
            .unwrap_or_else(|_| Err("creating the database panicked".into()))
    })
}

fn make_database(server_url: &str, db: &str) -> Result<String, String> {
    let mut c = postgres::Client::connect(server_url, postgres::NoTls)
        .map_err(|e| format!("connect: {e}"))?;
    if let Err(e) = c.batch_execute(&format!("CREATE DATABASE \"{db}\"")) {
        let exists = e
            .as_db_error()
            .is_some_and(|d| d.code() == &postgres::error::SqlState::DUPLICATE_DATABASE);
        if !exists {
            return Err(format!("create database {db}: {e}"));
        }
    }
    let (base, query) = match server_url.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (server_url, None),
    };
    let scheme_end = base.find("://").map_or(0, |i| i + 3);
    let host_part = match base[scheme_end..].find('/') {
        Some(i) => &base[..scheme_end + i],
        None => base,
    };
    Ok(match query {
        Some(q) => format!("{host_part}/{db}?{q}"),
        None => format!("{host_part}/{db}"),
    })
}
