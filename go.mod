module github.com/tessera-ecs/tessera

go 1.26
