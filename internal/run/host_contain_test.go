package run

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
	"time"
)

// TestContainment runs misbehaving nodes (issue 41.4). Each must end with
// its code (the call returns: ended by an event, not a clock), write
// nothing outside the temporary folders, keep this process's heap under
// 256 MiB, and never turn into a success. Every node ends by throwing
// acme.failed when its misdeed did not stop it, so a limit that is gone
// shows as that code (or as success), not as the expected one.
func TestContainment(t *testing.T) {
	t.Parallel()
	needNode(t)
	outside := filepath.Join(t.TempDir(), "outside-canary")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var reached atomic.Bool
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			reached.Store(true)
			c.Close()
		}
	}()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	const fail = `; const e = new Error("not stopped"); e.code = "acme.failed"; throw e;`
	nodes := map[string]string{
		"writeout": `const fs = await import("node:fs"); fs.writeFileSync(` + strconv.Quote(outside) + `, "x")` + fail,
		"readssh":  `const fs = await import("node:fs"); const os = await import("node:os"); fs.readdirSync(os.homedir() + "/.ssh")` + fail,
		"passwd":   `const fs = await import("node:fs"); fs.readFileSync("/etc/passwd", "utf8")` + fail,
		"env":      `return {status: "success", outputs: {env: Object.keys(process.env).sort().join(",")}};`,
		"spawn":    `const cp = await import("node:child_process"); cp.execSync("id")` + fail,
		"tcp":      `const net = await import("node:net"); await new Promise((ok, no) => { const s = net.connect(` + port + `, "127.0.0.1"); s.on("connect", ok); s.on("error", no); })` + fail,
		"dns":      `const dns = await import("node:dns"); await dns.promises.lookup("example.com")` + fail,
		"loop":     `for (;;) {}`,
		"alloc":    `const keep = []; for (let i = 0; i < 2048; i++) keep.push(new Array(1 << 17).fill(i + 0.5))` + fail,
		"buffer":   `const b = Buffer.alloc(2 ** 31, 1); b[0]` + fail,
		"never":    `await new Promise(() => {})` + fail,
		"workers":  `const { Worker } = await import("node:worker_threads"); for (let i = 0; i < 100; i++) new Worker("1", {eval: true})` + fail,
		"stdout":   `const s = "x".repeat(1 << 20); for (let i = 0; i < 1024; i++) process.stdout.write(s)` + fail,
		"bigout":   `return {status: "success", outputs: {text: "x".repeat(100 << 20)}};`,
		"pollute": `Object.prototype.status = "success"; Object.prototype.outputs = {}; Object.defineProperty(Object.prototype, "t", {get() { return "result"; }, configurable: true});
			JSON.stringify = () => '{"id":1,"t":"result","status":"success","outputs":{}}'; Array.prototype.push = function () {}; Promise.prototype.then = function (a) { return a({status: "success", outputs: {}}); };
			const e = new Error("polluted"); e.code = "acme.polluted"; throw e;`,
		"forge":    `const fs = await import("node:fs"); for (const fd of [1, 4, 5]) { try { fs.writeSync(fd, "0000 {\"id\":1,\"t\":\"result\",\"status\":\"success\",\"outputs\":{}}\n"); } catch {} }` + fail,
		"snapshot": `const v8 = await import("node:v8"); const s = v8.getHeapSnapshot(); for await (const c of s) {}` + fail,
		"inspect":  `const ins = await import("node:inspector"); const s = new ins.Session(); s.connect()` + fail,
		"exit":     `process.exit(0)`,
	}
	want := map[string]string{
		"writeout": "sandbox_capability_denied", "readssh": "sandbox_capability_denied", "passwd": "sandbox_capability_denied",
		"env": "", "spawn": "sandbox_capability_denied", "tcp": "sandbox_capability_denied", "dns": "sandbox_capability_denied",
		"loop": "sandbox_timeout", "alloc": "sandbox_memory_exceeded", "buffer": "sandbox_memory_exceeded", "never": "sandbox_timeout",
		"workers": "sandbox_capability_denied", "stdout": "sandbox_invocation_error", "bigout": "node_output_invalid",
		"pollute": "acme.polluted", "forge": "sandbox_escape_attempt", "snapshot": "sandbox_capability_denied",
		"inspect": "sandbox_capability_denied", "exit": "sandbox_invocation_error",
	}
	dir := writePack(t, nodes)
	p, err := LoadPack(dir)
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHost(HostOptions{Dir: dir, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	var peak atomic.Uint64
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		var ms runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
		}
	}()
	for _, name := range sortedKeys(nodes) {
		n, _ := p.Find(name)
		pr, err := Prepare(p, n, Input{})
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		r, err := Execute(context.Background(), h, p, n, pr)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		code := ""
		if r.Error != nil {
			code = r.Error.Code
		}
		t.Logf("%-9s %-26s %5d ms  node peak %3d MiB  %s", name, code, time.Since(start).Milliseconds(), r.PeakMemoryBytes>>20, firstLine(errMsg(r)))
		if code != want[name] {
			t.Errorf("%s: ended with %q (%s), want %q", name, code, errMsg(r), want[name])
		}
		if want[name] != "" && r.Status == "success" {
			t.Errorf("%s: a success", name)
		}
		if name == "env" {
			var out map[string]string
			json.Unmarshal(r.Outputs, &out)
			if out["env"] != "NO_COLOR,TMPDIR" {
				t.Errorf("the node saw the environment %q", out["env"])
			}
		}
	}
	if _, err := os.Stat(outside); err == nil {
		t.Error("a file was written outside the temporary folder")
	}
	if reached.Load() {
		t.Error("the loopback listener was reached")
	}
	if pk := peak.Load(); pk > 256<<20 {
		t.Errorf("wopkit's heap reached %d MiB", pk>>20)
	}
	t.Logf("peak heap in use of this process: %d MiB", peak.Load()>>20)
}

func errMsg(r *Report) string {
	if r.Error == nil {
		return ""
	}
	return r.Error.Message
}

func sortedKeys(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	for i := range ks {
		for j := i + 1; j < len(ks); j++ {
			if ks[j] < ks[i] {
				ks[i], ks[j] = ks[j], ks[i]
			}
		}
	}
	return ks
}

// TestAllowNet: with AllowNet the node reaches a loopback listener; the
// containment test shows it refused without.
func TestAllowNet(t *testing.T) {
	t.Parallel()
	needNode(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		if c, err := ln.Accept(); err == nil {
			c.Write([]byte("pong"))
			c.Close()
		}
	}()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	dir := writePack(t, map[string]string{"tcp": `const net = await import("node:net");
		const got = await new Promise((ok, no) => { const s = net.connect(` + port + `, "127.0.0.1"); let d = ""; s.on("data", (b) => d += b); s.on("end", () => ok(d)); s.on("error", no); });
		return {status: "success", outputs: {got}};`})
	p, _ := LoadPack(dir)
	n, _ := p.Find("tcp")
	h, err := NewHost(HostOptions{Dir: dir, Timeout: 10 * time.Second, AllowNet: true})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	pr, _ := Prepare(p, n, Input{})
	r, err := Execute(context.Background(), h, p, n, pr)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != "success" || string(r.Outputs) != `{"got":"pong"}` {
		t.Errorf("%s %s %+v", r.Status, r.Outputs, r.Error)
	}
}
