module example.com/todo

go 1.26

replace github.com/kitdev/kit/runtime => ../../runtime
