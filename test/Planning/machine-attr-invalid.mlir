// Verifier errors of the machine model attributes.
// RUN: cmm-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{a machine needs at least one node}}
module attributes {cmmtg.machine = #cmmtg.machine<name = "m", nodes = [], link = <latency = 1.0e-5 : f64, bandwidth = 1.0e9 : f64>, routes = [], memory_limit = 0.0 : f64>} {
}

// -----

// expected-error @+1 {{node 'n' needs at least one core, worker, thread and communicator}}
module attributes {cmmtg.machine = #cmmtg.machine<name = "m", nodes = [#cmmtg.node<name = "n", cores = 2, workers = 0, threads = 1, communicators = 1, memory = 1.0e9 : f64, time = {}>], link = <latency = 1.0e-5 : f64, bandwidth = 1.0e9 : f64>, routes = [], memory_limit = 0.0 : f64>} {
}

// -----

// expected-error @+1 {{a route from node 0 to node 3 of a machine with 1 node(s)}}
module attributes {cmmtg.machine = #cmmtg.machine<name = "m", nodes = [#cmmtg.node<name = "n", cores = 2, workers = 1, threads = 1, communicators = 1, memory = 1.0e9 : f64, time = {}>], link = <latency = 1.0e-5 : f64, bandwidth = 1.0e9 : f64>, routes = [#cmmtg.route<from = 0, to = 3, link = <latency = 1.0e-5 : f64, bandwidth = 1.0e9 : f64>>], memory_limit = 0.0 : f64>} {
}

// -----

// expected-error @+1 {{'cmmtg.machine' must be a #cmmtg.machine, got "c5"}}
module attributes {cmmtg.machine = "c5"} {
}

// -----

module {
  // expected-error @+1 {{'cmmtg.machine' belongs on a module or a cmmtg.graph}}
  func.func @f() attributes {cmmtg.machine = "c5"} {
    return
  }
}

// -----

// expected-error @+1 {{node 'n' needs a first_touch of at least 0}}
module attributes {cmmtg.machine = #cmmtg.machine<name = "m", nodes = [#cmmtg.node<name = "n", cores = 2, workers = 1, threads = 1, communicators = 1, memory = 1.0e9 : f64, time = {}, first_touch = -1.0e-9 : f64>], link = <latency = 1.0e-5 : f64, bandwidth = 1.0e9 : f64>, routes = [], memory_limit = 0.0 : f64>} {
}

// -----

// expected-error @+1 {{node 'n' needs a positive network bandwidth}}
module attributes {cmmtg.machine = #cmmtg.machine<name = "m", nodes = [#cmmtg.node<name = "n", cores = 2, workers = 1, threads = 1, communicators = 1, memory = 1.0e9 : f64, time = {}, network = 0.0 : f64>], link = <latency = 1.0e-5 : f64, bandwidth = 1.0e9 : f64>, routes = [], memory_limit = 0.0 : f64>} {
}

// -----

// expected-error @+1 {{node 'n' needs a task_overhead of at least 0}}
module attributes {cmmtg.machine = #cmmtg.machine<name = "m", nodes = [#cmmtg.node<name = "n", cores = 2, workers = 1, threads = 1, communicators = 1, memory = 1.0e9 : f64, time = {}, task_overhead = -1.0e-6 : f64>], link = <latency = 1.0e-5 : f64, bandwidth = 1.0e9 : f64>, routes = [], memory_limit = 0.0 : f64>} {
}

// -----

// expected-error @+1 {{node 'n' needs a receive_cpu_per_byte of at least 0}}
module attributes {cmmtg.machine = #cmmtg.machine<name = "m", nodes = [#cmmtg.node<name = "n", cores = 2, workers = 1, threads = 1, communicators = 1, memory = 1.0e9 : f64, time = {}, receive_cpu = 1.0e-5 : f64, receive_cpu_per_byte = -1.0e-10 : f64>], link = <latency = 1.0e-5 : f64, bandwidth = 1.0e9 : f64>, routes = [], memory_limit = 0.0 : f64>} {
}

// -----

// expected-error @+1 {{node 'n': configurations are workers, threads and gemm factor, three numbers a split}}
module attributes {cmmtg.machine = #cmmtg.machine<name = "m", nodes = [#cmmtg.node<name = "n", cores = 2, workers = 1, threads = 1, communicators = 1, memory = 1.0e9 : f64, time = {}, configurations = [1.0, 2.0]>], link = <latency = 1.0e-5 : f64, bandwidth = 1.0e9 : f64>, routes = [], memory_limit = 0.0 : f64>} {
}

// -----

// expected-error @+1 {{node 'n': split 1 needs whole numbers of workers and threads in [1, 2^20] and a positive gemm factor}}
module attributes {cmmtg.machine = #cmmtg.machine<name = "m", nodes = [#cmmtg.node<name = "n", cores = 2, workers = 1, threads = 1, communicators = 1, memory = 1.0e9 : f64, time = {}, configurations = [1.0, 2.0, 1.0, 2.0, 1.0, 0.0]>], link = <latency = 1.0e-5 : f64, bandwidth = 1.0e9 : f64>, routes = [], memory_limit = 0.0 : f64>} {
}

// -----

// expected-error @+1 {{node 'n': split 0 needs whole numbers of workers and threads in [1, 2^20] and a positive gemm factor}}
module attributes {cmmtg.machine = #cmmtg.machine<name = "m", nodes = [#cmmtg.node<name = "n", cores = 2, workers = 1, threads = 1, communicators = 1, memory = 1.0e9 : f64, time = {}, configurations = [1.5, 1.0, 1.0]>], link = <latency = 1.0e-5 : f64, bandwidth = 1.0e9 : f64>, routes = [], memory_limit = 0.0 : f64>} {
}

// -----

// expected-error @+1 {{node 'n': split 1 repeats split 0}}
module attributes {cmmtg.machine = #cmmtg.machine<name = "m", nodes = [#cmmtg.node<name = "n", cores = 2, workers = 1, threads = 1, communicators = 1, memory = 1.0e9 : f64, time = {}, configurations = [1.0, 2.0, 1.0, 1.0, 2.0, 1.5]>], link = <latency = 1.0e-5 : f64, bandwidth = 1.0e9 : f64>, routes = [], memory_limit = 0.0 : f64>} {
}

// -----

// The master alone is checked as every node is.
// expected-error @+1 {{node 'alone' needs a positive memory}}
module attributes {cmmtg.machine = #cmmtg.machine<name = "m", nodes = [#cmmtg.node<name = "n", cores = 1, workers = 1, threads = 1, communicators = 1, memory = 1.0e9 : f64, time = {}>], link = <latency = 1.0e-5 : f64, bandwidth = 1.0e9 : f64>, routes = [], memory_limit = 0.0 : f64, master_alone = <name = "alone", cores = 2, workers = 1, threads = 2, communicators = 1, memory = 0.0 : f64, time = {}>>} {
}

// -----

// expected-error @+1 {{node 'n' needs a send_cpu of at least 0}}
module attributes {cmmtg.machine = #cmmtg.machine<name = "m", nodes = [#cmmtg.node<name = "n", cores = 2, workers = 1, threads = 1, communicators = 1, memory = 1.0e9 : f64, time = {}, send_cpu = -1.0e-5 : f64>], link = <latency = 1.0e-5 : f64, bandwidth = 1.0e9 : f64>, routes = [], memory_limit = 0.0 : f64>} {
}

// -----

// expected-error @+1 {{node 'n' needs a hot_factor in (0, 1]}}
module attributes {cmmtg.machine = #cmmtg.machine<name = "m", nodes = [#cmmtg.node<name = "n", cores = 2, workers = 1, threads = 1, communicators = 1, memory = 1.0e9 : f64, time = {}, cache_bytes = 3.2e7 : f64, hot_factor = 1.5 : f64>], link = <latency = 1.0e-5 : f64, bandwidth = 1.0e9 : f64>, routes = [], memory_limit = 0.0 : f64>} {
}

// -----

// expected-error @+1 {{node 'n' needs a cache_bytes of at least 0}}
module attributes {cmmtg.machine = #cmmtg.machine<name = "m", nodes = [#cmmtg.node<name = "n", cores = 2, workers = 1, threads = 1, communicators = 1, memory = 1.0e9 : f64, time = {}, cache_bytes = -1.0 : f64>], link = <latency = 1.0e-5 : f64, bandwidth = 1.0e9 : f64>, routes = [], memory_limit = 0.0 : f64>} {
}

// -----

// expected-error @+1 {{node 'n' needs a huge_page_bytes of at least 0}}
module attributes {cmmtg.machine = #cmmtg.machine<name = "m", nodes = [#cmmtg.node<name = "n", cores = 2, workers = 1, threads = 1, communicators = 1, memory = 1.0e9 : f64, time = {}, huge_page_bytes = -2>], link = <latency = 1.0e-5 : f64, bandwidth = 1.0e9 : f64>, routes = [], memory_limit = 0.0 : f64>} {
}
